# Sourced by the measuring scripts (measure-class.sh, measure-shards.sh),
# from the course's root: `make_class DIR N [MARK]` writes N generated
# submissions into DIR, a mix like a real class: half full marks (the
# reference solutions), a quarter starters, a quarter broken (a full
# solution with one exercise, in turn, that does not compile). With MARK,
# every learner file gets a comment of its own, so that no file is the same
# as in another class made with another MARK (nothing is graded twice).
make_class() {
    local class=$1 count=$2 mark=${3:-}
    local exercises i kind dest exercise
    exercises=$(ls exercises)
    for i in $(seq -w 1 "$count"); do
        kind=full
        case $((10#$i % 4)) in
            1) kind=starter ;;
            2) kind=broken ;;
        esac
        dest=$class/student-$i-$kind
        mkdir -p "$dest"
        cp -r exercises "$dest/exercises"
        rm -rf "$dest"/exercises/*/target
        if [ "$kind" != starter ]; then
            for exercise in $exercises; do
                rm -rf "$dest/exercises/$exercise/src"
                cp -r "solutions/$exercise/src" "$dest/exercises/$exercise/src"
                if [ -d "solutions/$exercise/derive/src" ]; then
                    rm -rf "$dest/exercises/$exercise/derive/src"
                    cp -r "solutions/$exercise/derive/src" "$dest/exercises/$exercise/derive/src"
                fi
            done
        fi
        if [ "$kind" = broken ]; then
            set -- $exercises
            shift $(( 10#$i % $# ))
            echo "this is not Rust" >> "$dest/exercises/$1/src/lib.rs"
        fi
        if [ -n "$mark" ]; then
            find "$dest/exercises" -name '*.rs' -path '*/src/*' -exec sh -c 'printf "\n// %s\n" "$0" >> "$1"' "$mark-$i" {} \;
        fi
    done
}

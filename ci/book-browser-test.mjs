// Loads every page of the built book in headless Chromium and checks what a
// reader sees:
//
//   * no errors in the console (offline, the playground's crate list cannot
//     load: failed requests to play.rust-lang.org are counted, not errors);
//   * every page SUMMARY.md lists is built and loaded;
//   * a Run button (mdBook's `pre.playground` with its `.play-button`) on
//     exactly the Rust blocks of the chapter that are not `noplayground`,
//     and on none that uses the course's crates;
//   * each quiz (a page may hold one after each section) answers one
//     question wrong and the rest right, and shows the score, the correct answer and the explanations, offline;
//   * the search finds "invariant";
//   * every figure's SVG loaded and has a size;
//   * at 390 px wide, no page scrolls sideways and no text is clipped;
//   * compiler output (```text and ```console blocks) wraps: at 1280 px no
//     such block scrolls sideways;
//   * a page opened at an anchor shows its text on the first screen,
//     without scrolling (a screenshot of the content column that is not
//     blank);
//   * 404.html, served under the site's prefix, finds its stylesheets.
//
//   node ci/book-browser-test.mjs BOOK_DIR BOOK_SRC [CHROMIUM]
//
// No dependencies: it serves the book with node's http module and drives
// Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe).

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync, readdirSync, existsSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { join, extname, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { tmpdir } from 'node:os';

const [bookDir, srcDir, chromium = '/usr/bin/chromium'] = process.argv.slice(2);
if (!bookDir || !srcDir) {
    console.error('usage: node ci/book-browser-test.mjs BOOK_DIR BOOK_SRC [CHROMIUM]');
    process.exit(2);
}
const started = Date.now();
const tomlSiteUrl = /^site-url\s*=\s*"([^"]*)"/m.exec(readFileSync(join(srcDir, '..', 'book.toml'), 'utf8'));
const prefix = tomlSiteUrl ? tomlSiteUrl[1] : '/';
const COURSE_CRATES = /\b(lock_order_fine_print|ordered_tree|send_marker|checksum_derive)::/;

// The chapters' Rust blocks, from the Markdown: how many should run.
function expectedPlaygrounds(markdown) {
    let count = 0;
    for (const line of markdown.split('\n')) {
        const info = /^\s*```(\S*)/.exec(line);
        if (!info || !info[1]) continue;
        const tokens = info[1].split(',');
        if (tokens[0] === 'rust' && !tokens.includes('noplayground') && !tokens.includes('ignore')) count += 1;
    }
    return count;
}
const chapters = readFileSync(join(srcDir, 'SUMMARY.md'), 'utf8')
    .split('\n')
    .map(line => /\]\(([^)]+\.md)\)/.exec(line))
    .filter(Boolean)
    .map(m => m[1]);
const expected = new Map(chapters.map(md => [md.replace(/\.md$/, '.html'), expectedPlaygrounds(readFileSync(join(srcDir, md), 'utf8'))]));

// A static server for the book, under the site's prefix, with 404.html.
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml',
    '.png': 'image/png', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.json': 'application/json' };
const root = resolve(bookDir);
const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.startsWith(prefix) ? join(root, path.slice(prefix.length)) : null;
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (file && file.startsWith(root) && existsSync(file) && statSync(file).isFile()) {
        res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
        res.end(readFileSync(file));
    } else {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end(readFileSync(join(root, '404.html')));
    }
});
await new Promise(ok => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}${prefix}`;

// Chromium, driven over a pipe: fd 3 in, fd 4 out, messages end with NUL.
const profile = mkdtempSync(join(tmpdir(), 'xsafe-chromium-'));
const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let nextId = 1, buffer = '';
const waiting = new Map(), listeners = [];
browser.stdio[4].on('data', chunk => {
    buffer += chunk.toString();
    let end;
    while ((end = buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id && waiting.has(message.id)) {
            const { ok, fail } = waiting.get(message.id);
            waiting.delete(message.id);
            message.error ? fail(new Error(JSON.stringify(message.error))) : ok(message.result);
        } else {
            listeners.forEach(listener => listener(message));
        }
    }
});
function send(method, params = {}, sessionId) {
    const id = nextId++;
    browser.stdio[3].write(JSON.stringify({ id, method, params, sessionId }) + '\0');
    return new Promise((ok, fail) => waiting.set(id, { ok, fail }));
}
const sleep = ms => new Promise(ok => setTimeout(ok, ms));

const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
const page = (method, params) => send(method, params, sessionId);
let consoleErrors = [], offlineRequests = 0, loaded = false, expectedMissing = null;
listeners.push(message => {
    if (message.sessionId !== sessionId) return;
    if (message.method === 'Page.loadEventFired') loaded = true;
    if (message.method === 'Runtime.exceptionThrown') {
        const text = message.params.exceptionDetails.exception?.description || message.params.exceptionDetails.text;
        // book.js asks play.rust-lang.org for its crate list; offline, the
        // fetch fails and the Run buttons stay hidden.
        if (/Failed to fetch/.test(text) && /fetch_with_timeout/.test(text)) offlineRequests += 1;
        else consoleErrors.push(text);
    }
    if (message.method === 'Runtime.consoleAPICalled' && message.params.type === 'error') {
        consoleErrors.push(message.params.args.map(arg => arg.value ?? arg.description).join(' '));
    }
    if (message.method === 'Log.entryAdded' && message.params.entry.level === 'error') {
        const { url = '', text } = message.params.entry;
        if (url.startsWith('https://play.rust-lang.org/')) { /* counted with its exception */ }
        else if (url === expectedMissing) { /* the 404 test's own page */ }
        else consoleErrors.push(`${text} ${url}`);
    }
});
await page('Page.enable');
await page('Runtime.enable');
await page('Log.enable');
async function open(url, width) {
    await page('Emulation.setDeviceMetricsOverride', { width, height: 900, deviceScaleFactor: 1, mobile: width < 600 });
    loaded = false;
    await page('Page.navigate', { url });
    for (let i = 0; i < 100 && !loaded; i++) await sleep(50);
    await sleep(300); // book.js and the searcher run after load
}
async function evaluate(expression) {
    const { result, exceptionDetails } = await page('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (exceptionDetails) throw new Error(exceptionDetails.text);
    return result.value;
}

const failures = [];
const fail = (where, what) => failures.push(`${where}: ${what}`);
const pages = readdirSync(root).filter(name => name.endsWith('.html') && name !== '404.html' && name !== 'toc.html');
for (const name of expected.keys()) {
    if (!pages.includes(name)) fail(name, 'listed in SUMMARY.md but not built');
}
let figures = 0;
for (const name of pages) {
    for (const width of [1280, 390]) {
        consoleErrors = [];
        await open(base + name, width);
        for (const error of consoleErrors) fail(`${name} (${width}px)`, `console error: ${error}`);
        if (width === 390) {
            const clipped = await evaluate(`(() => {
                const out = [];
                if (document.documentElement.scrollWidth > window.innerWidth + 1)
                    out.push('the page is ' + document.documentElement.scrollWidth + 'px wide');
                for (const el of document.querySelectorAll('main p, main li, main h1, main h2, main h3, main figcaption, main td, main th')) {
                    const style = getComputedStyle(el);
                    if (['hidden', 'clip'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
                        out.push(el.tagName + ' "' + el.textContent.slice(0, 40) + '" is clipped');
                    const box = el.getBoundingClientRect();
                    if (box.width > 0 && box.right > window.innerWidth + 1 && !el.closest('pre, .table-wrapper, table'))
                        out.push(el.tagName + ' "' + el.textContent.slice(0, 40) + '" runs off the screen');
                }
                return out;
            })()`);
            for (const problem of clipped) fail(`${name} (390px)`, problem);
            continue;
        }
        const overflowing = await evaluate(`Array.from(document.querySelectorAll('main pre > code.language-text, main pre > code.language-console'))
            .filter(code => code.closest('pre').scrollWidth > code.closest('pre').clientWidth + 1)
            .map(code => code.textContent.split('\\n')[0].slice(0, 60))`);
        for (const first of overflowing) fail(`${name} (${width}px)`, `compiler output scrolls sideways instead of wrapping: "${first}"`);
        const blocks = await evaluate(`(() => ({
            playgrounds: document.querySelectorAll('main pre.playground').length,
            buttons: document.querySelectorAll('main pre.playground .play-button').length,
            strayButtons: Array.from(document.querySelectorAll('main .play-button')).filter(b => !b.closest('pre.playground')).length,
            withCourseCrates: Array.from(document.querySelectorAll('main pre.playground')).filter(p => ${COURSE_CRATES}.test(p.textContent)).length,
            figures: Array.from(document.querySelectorAll('main figure img')).map(img => ({
                src: img.getAttribute('src'), ok: img.complete && img.naturalWidth > 0, alt: img.alt.length })),
        }))()`);
        if (expected.has(name) && blocks.playgrounds !== expected.get(name))
            fail(name, `${blocks.playgrounds} blocks with a Run button, the chapter has ${expected.get(name)} that run on the playground`);
        if (blocks.buttons !== blocks.playgrounds) fail(name, `${blocks.playgrounds} playground blocks but ${blocks.buttons} Run buttons`);
        if (blocks.strayButtons) fail(name, `${blocks.strayButtons} Run buttons outside playground blocks`);
        if (blocks.withCourseCrates) fail(name, `${blocks.withCourseCrates} blocks that use the course's crates have a Run button`);
        for (const figure of blocks.figures) {
            if (name !== 'print.html') figures += 1;
            if (!figure.src.endsWith('.svg')) fail(name, `figure ${figure.src} is not an SVG`);
            if (!figure.ok) fail(name, `figure ${figure.src} did not render`);
            if (!figure.alt) fail(name, `figure ${figure.src} has no alt text`);
        }
    }
}

// Quizzes (mdbook-quiz, book/quizzes): on each chapter that includes one,
// answer the first question right and the second wrong, the rest right,
// then check the review: the score, which answers are marked right and
// wrong, and that the correct answer and its explanation are shown. The
// answers come from the quiz data in the page itself. Nothing may be
// fetched from anywhere but the book's own server, and no telemetry may be
// defined.
let quizzes = 0;
const quizStarted = Date.now();
const quizChapters = chapters.filter(md => readFileSync(join(srcDir, md), 'utf8').includes('{{#quiz '));
const requests = [];
listeners.push(message => {
    if (message.sessionId === sessionId && message.method === 'Network.requestWillBeSent') requests.push(message.params.request.url);
});
await page('Network.enable');
async function waitFor(expression, what, timeout = 5000) {
    for (let waited = 0; waited < timeout; waited += 50) {
        const value = await evaluate(expression);
        if (value) return value;
        await sleep(50);
    }
    throw new Error(`timed out waiting for ${what}`);
}
// Answers the question on screen, rightly or not, and submits it. `quiz`
// is an expression for the quiz's placeholder (a page may hold several:
// one after each section it tests).
const answerQuestion = (quiz, index, right) => evaluate(`(() => {
    const placeholder = ${quiz};
    const question = JSON.parse(placeholder.dataset.quizQuestions).questions[${index}];
    const form = placeholder.querySelector('.question form.response');
    const inputs = Array.from(form.querySelectorAll('input'));
    if (question.type === 'Tracing') {
        const compiles = ${right} ? question.answer.doesCompile : !question.answer.doesCompile;
        inputs.find(input => input.value === String(compiles)).click();
        return { type: question.type, compiles };
    }
    const answers = [].concat(question.answer.answer);
    const picks = ${right} ? answers : [question.prompt.distractors[0]];
    for (const pick of picks) inputs.find(input => input.value === pick).click();
    form.querySelector('input[type=submit]').click();
    return { type: question.type, picks };
})()`);
let quizPages = 0;
for (const md of quizChapters) {
    const name = md.replace(/\.md$/, '.html');
    consoleErrors = [];
    await open(base + name, 1200);
    requests.length = 0;
    const expected = (readFileSync(join(srcDir, md), 'utf8').match(/\{\{#quiz /g) || []).length;
    let passed = 0;
    for (let q = 0; q < expected; q++) {
        const where = `${name} (quiz ${q + 1} of ${expected})`;
        const quiz = `document.querySelectorAll('.quiz-placeholder')[${q}]`;
        try {
            const count = await waitFor(`(() => {
                const placeholder = ${quiz};
                return placeholder && placeholder.querySelector('button.start') &&
                    JSON.parse(placeholder.dataset.quizQuestions).questions.length;
            })()`, 'the quiz and its Start button');
            if (await evaluate(`typeof window.telemetry !== 'undefined'`)) fail(where, 'window.telemetry is defined: answers would be logged');
            await evaluate(`${quiz}.scrollIntoView(); ${quiz}.querySelector('button.start').click()`);
            // One answer is wrong: the second, or the only one.
            const wrong = count > 1 ? 1 : 0;
            for (let index = 0; index < count; index++) {
                const title = await waitFor(`${quiz}.querySelector('.question .prompt h4')?.textContent`, `question ${index + 1}`);
                const answered = await answerQuestion(quiz, index, index !== wrong);
                if (answered.type === 'Tracing') {
                    if (answered.compiles) {
                        // The stdout box appears once "DOES compile" is chosen.
                        await waitFor(`!!${quiz}.querySelector('.question textarea')`, 'the stdout box');
                        const stdout = index === wrong ? 'not what it prints' : await evaluate(`JSON.parse(${quiz}.dataset.quizQuestions).questions[${index}].answer.stdout`);
                        await evaluate(`${quiz}.querySelector('.question textarea').focus()`);
                        await page('Input.insertText', { text: String(stdout) });
                    }
                    await evaluate(`${quiz}.querySelector('.question form.response input[type=submit]').click()`);
                }
                await waitFor(`(() => {
                    const heading = ${quiz}.querySelector('.question .prompt h4');
                    return !heading || heading.textContent !== ${JSON.stringify(title)};
                })()`, `question ${index + 1} to be submitted`);
            }
            const review = await waitFor(`(() => {
                const placeholder = ${quiz};
                const score = Array.from(placeholder.querySelectorAll('p')).find(p => /You answered/.test(p.textContent));
                return score && { score: score.textContent.replace(/\\s+/g, ' ').trim() };
            })()`, 'the answer review');
            if (!review.score.includes(`${count - 1}/${count}`))
                fail(where, `answered ${count - 1} of ${count} right, the review says "${review.score}"`);
            const giveUp = await evaluate(`(() => {
                const button = Array.from(${quiz}.querySelectorAll('button')).find(b => /see the correct answers/.test(b.textContent));
                if (button) button.click();
                return !!button;
            })()`);
            if (!giveUp) fail(where, 'the review offers no "see the correct answers" after a wrong answer');
            const shown = await waitFor(`(() => {
                const placeholder = ${quiz};
                const questions = JSON.parse(placeholder.dataset.quizQuestions).questions;
                const answers = Array.from(placeholder.querySelectorAll('.answer-wrapper'));
                if (answers.length !== questions.length || !answers[${count > 1 ? 1 : 0}].querySelector('.context')) return null;
                const words = text => text.replace(/[\`*_]/g, '').replace(/\\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ');
                return answers.slice(0, 2).map((answer, i) => ({
                    right: answer.querySelectorAll('.correct').length,
                    wrong: answer.querySelectorAll('.incorrect').length,
                    corrected: /The correct answer is/.test(answer.textContent),
                    explained: answer.querySelector('.context').textContent.replace(/\\s+/g, ' ').includes(words(questions[i].context)),
                }));
            })()`, 'the correct answers and their explanations');
            shown.forEach((answer, i) => {
                if (i === wrong) {
                    if (!answer.wrong || !answer.corrected) fail(where, `answer ${i + 1}, wrong, is not shown as wrong with the correct one: ${JSON.stringify(answer)}`);
                } else if (!answer.right || answer.wrong || answer.corrected) {
                    fail(where, `answer ${i + 1}, right, is not shown as right: ${JSON.stringify(answer)}`);
                }
                if (!answer.explained) fail(where, `an explanation (the question's context) is missing: ${JSON.stringify(shown)}`);
            });
            quizzes += 1;
            passed += 1;
        } catch (error) {
            fail(where, error.message);
        }
    }
    const found = await evaluate(`document.querySelectorAll('.quiz-placeholder').length`);
    if (found !== expected) fail(`${name} (quiz)`, `${expected} quizzes included, ${found} on the page`);
    if (passed === expected) quizPages += 1;
    for (const url of requests) {
        // mdBook's own request for the playground's crate list is counted above.
        if (url.startsWith('https://play.rust-lang.org/')) continue;
        if (!url.startsWith(`http://127.0.0.1:${server.address().port}/`) && !url.startsWith('data:'))
            fail(`${name} (quiz)`, `the page fetched ${url}: the quiz must work offline and send nothing`);
    }
    for (const error of consoleErrors) fail(`${name} (quiz)`, `console error: ${error}`);
}
if (quizPages !== quizChapters.length) fail('quizzes', `${quizPages} of the ${quizChapters.length} pages with quizzes passed`);
await page('Network.disable');
const quizSeconds = ((Date.now() - quizStarted) / 1000).toFixed(1);

// Pages opened at an anchor, as a link from another page opens them: the
// first screen must show the text, not a blank page until scrolled. The
// check is on pixels: a screenshot whose rows hold more than a handful of
// distinct bytes after PNG filtering has text on it.
function distinctBytes(png) {
    const data = Buffer.from(png, 'base64');
    const idat = [];
    for (let at = 8; at < data.length;) {
        const length = data.readUInt32BE(at);
        const type = data.toString('ascii', at + 4, at + 8);
        if (type === 'IDAT') idat.push(data.subarray(at + 8, at + 8 + length));
        at += 12 + length;
    }
    return new Set(inflateSync(Buffer.concat(idat))).size;
}
const anchorStarted = Date.now();
const anchors = [];
let fewestBytes = Infinity;
for (const md of chapters) {
    const text = readFileSync(join(srcDir, md), 'utf8');
    const found = /\]\(([a-z0-9-]+)\.md#([a-z0-9-]+)\)/.exec(text);
    if (found && anchors.length < 3 && !anchors.includes(`${found[1]}.html#${found[2]}`)) anchors.push(`${found[1]}.html#${found[2]}`);
}
if (anchors.length === 0) fail('anchors', 'no chapter links to an anchor: nothing to open');
for (const target of anchors) {
    consoleErrors = [];
    await open(base + target, 1280);
    const view = await evaluate(`(() => {
        const id = decodeURIComponent(location.hash.slice(1));
        const heading = document.getElementById(id);
        const box = heading && heading.getBoundingClientRect();
        const main = document.querySelector('main').getBoundingClientRect();
        const clip = { x: Math.max(0, main.left) + window.scrollX, y: window.scrollY, width: Math.min(main.width, window.innerWidth), height: window.innerHeight, scale: 1 };
        return { found: !!heading, top: box ? Math.round(box.top) : null, height: window.innerHeight, clip };
    })()`);
    if (!view.found) fail(target, 'the anchor names no element of the page');
    else if (view.top < -5 || view.top > view.height) fail(target, `the anchor's heading is at ${view.top}px, off the first screen`);
    // Only the content column: the sidebar has text even when the page
    // itself is blank.
    const { data } = await page('Page.captureScreenshot', { format: 'png', clip: view.clip });
    const distinct = distinctBytes(data);
    fewestBytes = Math.min(fewestBytes, distinct);
    if (distinct < 24) fail(target, `the first screen is blank (${distinct} distinct bytes in its screenshot)`);
    for (const error of consoleErrors) fail(target, `console error: ${error}`);
}
const anchorSeconds = ((Date.now() - anchorStarted) / 1000).toFixed(1);

// Search.
consoleErrors = [];
await open(base + 'index.html?search=invariant', 1200);
let hits = 0;
for (let i = 0; i < 40 && hits === 0; i++) {
    hits = await evaluate(`document.querySelectorAll('#mdbook-searchresults li').length`);
    if (hits === 0) await sleep(100);
}
if (hits === 0) fail('search', 'no result for "invariant"');
for (const error of consoleErrors) fail('search', `console error: ${error}`);

// 404.html under the prefix: its stylesheets load through <base href>.
consoleErrors = [];
expectedMissing = base + 'no/such/page.html';
await open(expectedMissing, 1200);
const styled = await evaluate(`Array.from(document.styleSheets).filter(s => { try { return s.cssRules.length > 0 } catch { return false } }).length`);
if (styled < 3) fail('404.html', `only ${styled} stylesheets loaded under ${prefix}`);
for (const error of consoleErrors) fail('404.html', `console error: ${error}`);

await new Promise(ok => { browser.once('exit', ok); browser.kill(); });
server.close();
try { rmSync(profile, { recursive: true, force: true }); } catch { /* Chromium's late writes: leave it to the system */ }
const seconds = ((Date.now() - started) / 1000).toFixed(1);
for (const failure of failures) console.log(failure);
console.log(`${pages.length} pages at 1280 and 390 px, ${anchors.length} opened at an anchor (${anchorSeconds}s, at least ${fewestBytes} distinct bytes on screen), ${figures} figures, ${quizzes} quizzes answered (one answer wrong each, ${quizSeconds}s), search: ${hits} results for "invariant"; ` +
    `${offlineRequests} fetches of the playground's crate list failed (offline: Run buttons stay hidden); ${failures.length} problems in ${seconds}s`);
process.exit(failures.length ? 1 : 0);

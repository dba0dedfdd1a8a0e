#!/usr/bin/env node
/**
 * The docs site as visitors get it: serves `storybook-static/` (the output of `npm run build-storybook`)
 * on 127.0.0.1, opens every story that has checks (tag `test`) in Debian's Chromium, waits for its play
 * function, and fails on a play function that threw, a console error or warning, a failed request or an
 * unhandled error, unless the story names it in `parameters.expected` (as the dev-mode story tests do,
 * test/browser/story-guards.ts). Every docs page is opened too and must load without any of those, and
 * its rendered text is read as a visitor reads it:
 *  - no markdown table shown as text (a `|---|` delimiter row outside a code block: what an MDX page
 *    shows when GitHub-flavoured markdown is not enabled);
 *  - an MDX page renders each table of its source, in order, as a `<table>` with the source's rows and
 *    columns, and each `<Source code={…?raw}>` as the text of the file it imports; a Markdown file a page
 *    shows whole (`<Markdown>{…?raw}</Markdown>`: the Reference pages, docs/*.md) counts as its source there;
 *  - no props table (ArgTypes, Controls) renders empty, and an MDX page renders one per block it names.
 *
 *   node --import tsx scripts/check-static-storybook.mjs [--dir storybook-static] [--only <id part>] [--renderer webgl|webgpu|webgpu-webgl2] [--stories-only]
 *
 * `--stories-only` leaves the docs pages out: their text does not change with the renderer, and the stories they show
 * are the ones checked on their own (`npm run test:static` checks the pages once, with WebGLRenderer).
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { dirname, extname, join, normalize, resolve } from 'node:path'
import { chromium } from 'playwright'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/browser/chromium.mjs'

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : fallback
}
const root = resolve(option('--dir', 'storybook-static'))
/** The repository: docs entries name their MDX source relative to it. */
const repository = resolve(import.meta.dirname, '..')
const only = option('--only', undefined)
const renderer = option('--renderer', undefined)
const storiesOnly = args.includes('--stories-only')
const STORY_TIMEOUT = 180_000
/**
 * Noise from the libraries underneath, not from this one: fiber 9.8 constructs a THREE.Clock; @react-three/rapier
 * 2.2 starts rapier3d-compat's WebAssembly the way its wasm-bindgen calls deprecated (the Physics pages).
 */
const KNOWN_NOISE = ['THREE.Clock: This module has been deprecated', 'using deprecated parameters for the initialization function']

if (!existsSync(join(root, 'index.json'))) {
  console.error(`${root}/index.json not found: run "npm run build-storybook" first`)
  process.exit(1)
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.woff2': 'font/woff2',
}
const server = createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname))
  const file = join(root, path.endsWith('/') ? `${path}index.html` : path)
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404, { 'Content-Type': 'text/plain' })
    response.end('not found')
    return
  }
  response.writeHead(200, {
    'Content-Type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': statSync(file).size,
  })
  createReadStream(file).pipe(response)
})
await new Promise((done) => server.listen(0, '127.0.0.1', done))
const origin = `http://127.0.0.1:${server.address().port}`

const index = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8'))
const entries = Object.values(index.entries).filter((entry) => !only || entry.id.includes(only))
const stories = entries.filter((entry) => entry.type === 'story' && entry.tags?.includes('test'))
const docs = storiesOnly ? [] : entries.filter((entry) => entry.type === 'docs')

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [...CHROMIUM_ARGS],
})

/** Listens to the preview's channel from the first script on: the play function's outcome lands on window. */
function listenToPreview() {
  const attach = () => {
    const channel = window.__STORYBOOK_ADDONS_CHANNEL__
    if (!channel) return setTimeout(attach, 5)
    channel.on('storyFinished', (event) => (window.__md2Finished = event))
    channel.on('playFunctionThrewException', (error) => (window.__md2Failure = `play function threw: ${error?.message ?? error}`))
    channel.on('storyThrewException', (error) => (window.__md2Failure = `story threw: ${error?.message ?? error}`))
    channel.on('storyErrored', (error) => (window.__md2Failure = `story errored: ${error?.title ?? ''} ${error?.description ?? ''}`))
    channel.on('docsRendered', () => (window.__md2Docs = true))
  }
  attach()
}

async function visit(entry) {
  const context = await browser.newContext({ viewport: { width: 640, height: 480 } })
  const page = await context.newPage()
  await page.addInitScript(listenToPreview)
  const problems = []
  const failedUrls = []
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return
    problems.push({ kind: `console.${message.type()}`, text: message.text(), url: message.location()?.url ?? '' })
  })
  page.on('pageerror', (error) => problems.push({ kind: 'unhandled error', text: `${error.name}: ${error.message}`, url: '' }))
  page.on('response', (response) => {
    if (response.status() >= 400) failedUrls.push({ url: response.url(), text: `HTTP ${response.status()}` })
  })
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? ''
    if (!/ERR_ABORTED/.test(failure)) failedUrls.push({ url: request.url(), text: failure })
  })
  const globals = renderer ? `&globals=renderer:${renderer}` : ''
  const viewMode = entry.type === 'docs' ? 'docs' : 'story'
  const started = Date.now()
  let failure
  let docsProblems = []
  try {
    await page.goto(`${origin}/iframe.html?id=${encodeURIComponent(entry.id)}&viewMode=${viewMode}${globals}`)
    await page.waitForFunction(
      (docsMode) => (docsMode ? window.__md2Docs || window.__md2Failure : window.__md2Finished || window.__md2Failure),
      entry.type === 'docs',
      { timeout: STORY_TIMEOUT, polling: 100 },
    )
    failure = await page.evaluate(
      () =>
        window.__md2Failure ??
        (window.__md2Finished?.status === 'error'
          ? `finished with errors: ${JSON.stringify(window.__md2Finished.reporters ?? [])}`
          : undefined),
    )
    // Docs pages render their stories too: give their canvases a moment to load what they ask for.
    if (entry.type === 'docs') {
      await page.waitForTimeout(2000)
      docsProblems = compareDocs(mdxExpectations(entry), await page.evaluate(readRenderedDocs))
    }
  } catch (error) {
    failure = `did not finish in ${STORY_TIMEOUT / 1000} s (${error.message.split('\n')[0]})`
  }
  const expected = (await page.evaluate(() => window.__md2StoryExpects).catch(() => undefined)) ?? {}
  await context.close()
  const allowedRequest = (url) => (expected.failedRequests ?? []).some((part) => url.includes(part))
  const allowedMessage = (text) =>
    KNOWN_NOISE.some((noise) => text.includes(noise)) || (expected.messages ?? []).some((part) => text.includes(part))
  const found = []
  if (failure) found.push(failure)
  found.push(...docsProblems)
  for (const request of failedUrls) if (!allowedRequest(request.url)) found.push(`failed request: ${request.text} ${request.url}`)
  for (const problem of problems) {
    // The browser's own line for a failed request is judged with the request.
    if (/^Failed to load resource/.test(problem.text) && (allowedRequest(problem.url) || failedUrls.some((r) => r.url === problem.url)))
      continue
    if (!allowedMessage(problem.text)) found.push(`${problem.kind}: ${problem.text.split('\n')[0]}`)
  }
  return { found, seconds: (Date.now() - started) / 1000 }
}

// ---------------------------------------------------------------------------------------------
// Docs pages: what their MDX source asks for, what the page shows.

/** A GFM table's delimiter row: `|---|:--:|`, with or without the outer pipes. */
const DELIMITER_ROW = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?$/
/** Table cells: split on pipes that are not escaped (`\|` inside a cell's code). */
const cells = (row) =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)

/**
 * What an MDX page's source asks for, outside its code fences: its GFM tables (rows, columns and the line
 * each starts on), how many props blocks it names, and the file each `<Source code={name}>` shows (`name`
 * imported from `….tsx?raw`). Nothing for an autodocs page (a stories file).
 */
function mdxExpectations(entry) {
  if (!entry.importPath?.endsWith('.mdx')) return undefined
  const file = join(repository, entry.importPath)
  const tables = []
  let propsBlocks = 0
  const sources = []
  const raw = new Map()
  /** The tables and fenced blocks of `lines` (of `origin`, a file of the repository), in order. */
  const scan = (lines, origin, mdx) => {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]
      const fence = /^(\s*)(`{3,}|~{3,})/.exec(line)
      if (fence) {
        // A fenced block is shown as a source block too, with its own text.
        const start = i
        while (++i < lines.length && !lines[i].trim().startsWith(fence[2]));
        const text = lines
          .slice(start + 1, i)
          .map((text) => text.slice(fence[1].length))
          .join('\n')
        sources.push({ line: `${origin}:${start + 1}`, file: `${origin}:${start + 1}`, text })
        continue
      }
      if (mdx) {
        const imported = /^import\s+(\w+)\s+from\s+['"](.+)\?raw['"]/.exec(line)
        if (imported) raw.set(imported[1], join(dirname(file), imported[2]))
        propsBlocks += (line.match(/<(ArgTypes|Controls|ArgsTable)\b/g) ?? []).length
        for (const shown of line.matchAll(/<Source\b[^>]*\bcode=\{(\w+)\}/g)) {
          const path = raw.get(shown[1])
          sources.push({
            line: `${origin}:${i + 1}`,
            file: path && relativeToRepository(path),
            text: path && existsSync(path) ? readFileSync(path, 'utf8') : '',
          })
        }
        // A Markdown file shown whole (`<Markdown>{page}</Markdown>`, or through a function, as the
        // Reference pages do): its tables and fenced blocks are the page's, in its place.
        for (const shown of line.matchAll(/<Markdown>\{(?:\w+\()?(\w+)\)?\}<\/Markdown>/g)) {
          const path = raw.get(shown[1])
          if (path && existsSync(path)) scan(readFileSync(path, 'utf8').split('\n'), relativeToRepository(path), false)
          else sources.push({ line: `${origin}:${i + 1}`, file: undefined, text: '' })
        }
      }
      if (line.trim().startsWith('|') && DELIMITER_ROW.test(lines[i + 1]?.trim() ?? '')) {
        const start = i
        let end = i + 2
        while (end < lines.length && lines[end].trim().startsWith('|')) end++
        tables.push({
          line: `${origin}:${start + 1}`,
          rows: end - start - 1,
          columns: cells(line).length,
          header: cells(line).map((cell) => cell.trim()),
        })
        i = end - 1
      }
    }
  }
  scan(readFileSync(file, 'utf8').split('\n'), entry.importPath.replace(/^\.\//, ''), true)
  return { page: entry.importPath.replace(/^\.\//, ''), tables, propsBlocks, sources }
}

const relativeToRepository = (path) => path.slice(repository.length + 1)

/** Runs in the page: the docs content as rendered (stories inside it left out). */
function readRenderedDocs() {
  const docs = document.querySelector('#storybook-docs .sbdocs-content') ?? document.querySelector('#storybook-docs')
  if (!docs) return undefined
  const outsideStories = (element) => !element.closest('.docs-story, .sb-story')
  // Text a reader sees outside code blocks and stories, one string per block element.
  const textBlocks = [...docs.querySelectorAll('p, li, td, th, h1, h2, h3, h4, blockquote')]
    .filter((element) => outsideStories(element) && !element.closest('pre, .docblock-source'))
    .map((element) => element.textContent ?? '')
  const props = [...docs.querySelectorAll('.docblock-argstable')].map((table) => table.querySelectorAll('tbody tr').length)
  const tables = [...docs.querySelectorAll('table')]
    .filter((table) => outsideStories(table) && !table.closest('.docblock-argstable'))
    .map((table) => ({
      rows: table.querySelectorAll('tr').length,
      columns: table.querySelector('tr')?.children.length ?? 0,
      header: [...(table.querySelector('tr')?.children ?? [])].map((cell) => cell.textContent?.trim() ?? ''),
    }))
  const sources = [...docs.querySelectorAll('.docblock-source')]
    .filter(outsideStories)
    .map((block) => block.querySelector('pre')?.textContent ?? '')
  const text = docs.textContent ?? ''
  return {
    textBlocks,
    props,
    tables,
    sources,
    emptyProps: ['This story has no controls', "couldn't find or generate any controls", 'Args unsupported', 'No component found'].filter(
      (phrase) => text.includes(phrase),
    ),
  }
}

/** Over every docs page: tables in the MDX sources and rendered with their rows, props tables with rows, source blocks as written. */
const docsTotals = { tables: 0, tablesRendered: 0, props: 0, sources: 0, sourcesShown: 0 }

/** What is wrong with a rendered docs page, one line each, naming the source's line where there is one. */
function compareDocs(expected, rendered) {
  if (!rendered) return ['the docs content (#storybook-docs) is not on the page']
  const problems = []
  docsTotals.props += rendered.props.filter((rows) => rows > 0).length
  const at = (line) => (expected ? line : 'the page')
  for (const text of rendered.textBlocks) {
    const delimiter = /\|\s*:?-{3,}:?\s*\|/.exec(text)
    if (delimiter) problems.push(`a markdown table shown as text: "${text.slice(0, 100).replace(/\s+/g, ' ')}…"`)
  }
  if (rendered.emptyProps.length > 0) problems.push(`a props table renders empty ("${rendered.emptyProps[0]}")`)
  rendered.props.forEach((rows, i) => {
    if (rows === 0) problems.push(`props table ${i + 1} of ${rendered.props.length} has no rows`)
  })
  if (!expected) return problems
  docsTotals.tables += expected.tables.length
  docsTotals.sources += expected.sources.length
  if (rendered.props.length !== expected.propsBlocks)
    problems.push(`${expected.propsBlocks} props block(s) (ArgTypes, Controls) in ${expected.page}, ${rendered.props.length} rendered`)
  if (rendered.tables.length !== expected.tables.length)
    problems.push(`${expected.tables.length} markdown table(s) in ${expected.page}, ${rendered.tables.length} rendered as <table>`)
  expected.tables.forEach((table, i) => {
    const shown = rendered.tables[i]
    if (!shown) return
    const name = `table ${i + 1} of ${expected.tables.length} (${at(table.line)}, "${table.header.join(' | ')}")`
    if (shown.rows !== table.rows) problems.push(`${name}: ${table.rows} rows in the source, ${shown.rows} rendered`)
    if (shown.columns !== table.columns) problems.push(`${name}: ${table.columns} columns in the source, ${shown.columns} rendered`)
    if (shown.rows === table.rows && shown.columns === table.columns) docsTotals.tablesRendered++
  })
  if (rendered.sources.length !== expected.sources.length)
    problems.push(
      `${expected.sources.length} source block(s) (<Source>, fenced code) in ${expected.page}, ${rendered.sources.length} rendered`,
    )
  const words = (text) => text.replace(/\s+/g, ' ').trim()
  expected.sources.forEach((source, i) => {
    if (!source.file) problems.push(`source block at ${at(source.line)}: its code is not a ?raw import of a file`)
    else if (!source.text) problems.push(`source block at ${at(source.line)}: ${source.file} is missing or empty`)
    else if (rendered.sources[i] === undefined) return
    else if (words(rendered.sources[i]) !== words(source.text))
      problems.push(
        `source block ${i + 1} (${at(source.line)}) does not show ${source.file} as it is: "${words(rendered.sources[i]).slice(0, 80)}…"`,
      )
    else docsTotals.sourcesShown++
  })
  return problems
}

let failed = 0
const visited = [...stories, ...docs]
for (const entry of visited) {
  const { found, seconds } = await visit(entry)
  const name = `${entry.type === 'docs' ? 'docs ' : ''}${entry.title} / ${entry.name}`
  if (found.length > 0) {
    failed++
    console.log(`✗ ${name} (${seconds.toFixed(1)} s)\n    ${found.join('\n    ')}`)
  } else console.log(`✓ ${name} (${seconds.toFixed(1)} s)`)
}
await browser.close()
server.close()
const passed = visited.length - failed
console.log(
  `Static Storybook${renderer ? ` (renderer ${renderer})` : ''}: ${stories.length} stories and ${docs.length} docs pages, ` +
    `${passed} passed, ${failed} failed`,
)
if (docs.length > 0)
  console.log(
    `Docs pages: ${docsTotals.tablesRendered} of the ${docsTotals.tables} markdown tables in their MDX rendered with their rows, ` +
      `${docsTotals.props} props tables with rows, ${docsTotals.sourcesShown} of ${docsTotals.sources} source blocks showing their code`,
  )
process.exit(failed > 0 ? 1 : 0)

#!/usr/bin/env node
/**
 * The docs site as visitors get it: serves `storybook-static/` (the output of `npm run build-storybook`)
 * on 127.0.0.1, opens every story that has checks (tag `test`) in Debian's Chromium, waits for its play
 * function, and fails on a play function that threw, a console error or warning, a failed request or an
 * unhandled error, unless the story names it in `parameters.expected` (as the dev-mode story tests do,
 * test/browser/story-guards.ts). Every docs page is opened too and must load without any of those.
 *
 *   node --import tsx scripts/check-static-storybook.mjs [--dir storybook-static] [--only <id part>] [--renderer webgl|webgpu|webgpu-webgl2]
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { extname, join, normalize, resolve } from 'node:path'
import { chromium } from 'playwright'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/browser/chromium.mjs'

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : fallback
}
const root = resolve(option('--dir', 'storybook-static'))
const only = option('--only', undefined)
const renderer = option('--renderer', undefined)
const STORY_TIMEOUT = 180_000
/** Noise from the libraries underneath, not from this one (fiber 9.8 constructs a THREE.Clock). */
const KNOWN_NOISE = ['THREE.Clock: This module has been deprecated']

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
const docs = entries.filter((entry) => entry.type === 'docs')

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
    if (entry.type === 'docs') await page.waitForTimeout(2000)
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
  for (const request of failedUrls) if (!allowedRequest(request.url)) found.push(`failed request: ${request.text} ${request.url}`)
  for (const problem of problems) {
    // The browser's own line for a failed request is judged with the request.
    if (/^Failed to load resource/.test(problem.text) && (allowedRequest(problem.url) || failedUrls.some((r) => r.url === problem.url)))
      continue
    if (!allowedMessage(problem.text)) found.push(`${problem.kind}: ${problem.text.split('\n')[0]}`)
  }
  return { found, seconds: (Date.now() - started) / 1000 }
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
process.exit(failed > 0 ? 1 : 0)

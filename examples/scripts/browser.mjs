/**
 * What the examples' browser tests share: a static server for an example's dist/, Debian's Chromium
 * with the repository's flags, a page that records every console error, page error and failed request,
 * the app's state read from its probe on `window`, screenshots read back as pixels, and checks that
 * print `ok`/`FAIL` and end with `N passed, M failed`.
 * The test passes its own playwright-core's `chromium` in: this folder has no node_modules of its own.
 */
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
// The repository's browser flags (WebGL and WebGPU without a GPU, timers at full speed) and Debian's Chromium.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/browser/chromium.mjs'

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
}

/** Serves `dist` on 127.0.0.1, on a free port: a missing file is a 404 (a failed request for the page's watcher). */
export async function serve(dist) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    const file = normalize(join(dist, path === '/' ? 'index.html' : path))
    try {
      if (!file.startsWith(dist + sep)) throw new Error('outside dist/')
      const body = await readFile(file)
      response.writeHead(200, { 'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream' })
      response.end(body)
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }
}

/** Debian's Chromium (CHROMIUM_PATH overrides) with the repository's flags: WebGL on SwiftShader. */
export function launch(chromium) {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}

/**
 * A new page that records what went wrong on it (`problems`: console errors, page errors, failed
 * requests and HTTP errors) and the paths it requested (`requests`).
 */
export async function watchedPage(browser, viewport = { width: 800, height: 600 }) {
  // A context of its own, where screenshotPixels opens its decoding page.
  const page = await (await browser.newContext({ viewport })).newPage()
  const problems = []
  const requests = []
  const warnings = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
    if (message.type() === 'warning') warnings.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`))
  page.on('response', (response) => {
    requests.push(new URL(response.url()).pathname)
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`)
  })
  return { page, problems, requests, warnings }
}

/**
 * Runs `test(app)` on the built app in `dist` (or the app at `url`, a dev server), served on 127.0.0.1 and open in a watched page of Debian's
 * Chromium (at `path`: another page than index.html, or a `#hash`). `app` holds the `page`, the paths it
 * requested (`requests`), the console's `warnings`, `state()`, the app's state now as plain data
 * (`window[probe].state()`; undefined until the app has set its probe), and `waitFor(accept, what, ms =
 * timeout)`, which polls `state()` until `accept` holds and returns that state, or fails naming `what` and
 * `lastSeen(state)`. Then checks (with `check`) that nothing went wrong on the page: no console error, page
 * error or failed request. Closes the browser and the server whatever happened.
 */
export async function testApp(
  { chromium, dist, url, path = '', probe, check, timeout, lastSeen = (state) => `last ${JSON.stringify(state)}` },
  test,
) {
  // `url`: an app served already (a dev server), instead of `dist` served here.
  const server = url ? { url, close() {} } : await serve(dist)
  const browser = await launch(chromium)
  try {
    const { page, problems, requests, warnings } = await watchedPage(browser)
    const state = () => page.evaluate((name) => window[name]?.state(), probe)
    const waitFor = async (accept, what, ms = timeout) => {
      const deadline = Date.now() + ms
      for (;;) {
        const seen = await state()
        if (seen && accept(seen)) return seen
        if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}; ${lastSeen(seen)}`)
        await page.waitForTimeout(100)
      }
    }
    await page.goto(server.url + path)
    await test({ page, requests, warnings, state, waitFor })
    await check('no console error, page error or failed request', async () => {
      expect(problems.length === 0, problems.join('\n      '))
    })
  } finally {
    await browser.close()
    server.close()
  }
}

/** Resolves after `count` animation frames of the page. */
export function frames(page, count) {
  return page.evaluate(
    (n) =>
      new Promise((done) => {
        let left = n
        const step = () => (--left <= 0 ? done() : requestAnimationFrame(step))
        requestAnimationFrame(step)
      }),
    count,
  )
}

/**
 * The page as it is on screen, as RGBA pixels: `{ width, height, data }`. A screenshot (what the
 * compositor shows, so the WebGL canvas needs no preserveDrawingBuffer), decoded in a blank page of
 * its own so that the decoding is not a request of the page under test.
 */
export async function screenshotPixels(page) {
  const png = await page.screenshot()
  const decoder = await page.context().newPage()
  try {
    const { width, height, rgba } = await decoder.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
      const context = canvas.getContext('2d')
      context.drawImage(bitmap, 0, 0)
      const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data
      // Back to Node as base64: the result crosses as JSON.
      let binary = ''
      for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000))
      return { width: bitmap.width, height: bitmap.height, rgba: btoa(binary) }
    }, png.toString('base64'))
    return { width, height, data: new Uint8Array(Buffer.from(rgba, 'base64')) }
  } finally {
    await decoder.close()
  }
}

/**
 * Named checks, run one after another: each prints `ok` or `FAIL` with its reason; `finish()` prints
 * `N passed, M failed` and sets the exit code. `afterEach` runs after every check, passed or not
 * (letting go of keys, so a failure does not spill into the next check).
 */
export function checks({ afterEach = async () => {} } = {}) {
  let passed = 0
  let failed = 0
  return {
    async check(name, run) {
      const started = Date.now()
      try {
        await run()
        passed++
        console.log(`ok    ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
      } catch (error) {
        failed++
        console.log(`FAIL  ${name}\n      ${error instanceof Error ? error.message : String(error)}`)
      } finally {
        await afterEach()
      }
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed`)
      process.exitCode = failed > 0 ? 1 : 0
    },
  }
}

export function expect(condition, message) {
  if (!condition) throw new Error(message)
}

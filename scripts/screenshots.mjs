#!/usr/bin/env node
/**
 * Pictures for the README, made from the stories so they never go stale: builds Storybook, serves
 * the build on localhost, opens each story below in Debian's Chromium and writes docs/images/<name>.png.
 *
 *   npm run screenshots [-- --no-build] [-- --only=ogro,colours]
 */
import { execFileSync } from 'node:child_process'
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { extname, join, resolve } from 'node:path'
import { chromium } from 'playwright'

const root = resolve(import.meta.dirname, '..')
const out = join(root, 'storybook-static')
const images = join(root, 'docs/images')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** README picture → story id (title and export name, as Storybook derives them). */
const SHOTS = {
  ogro: 'quake-ii-ogro--with-weapon',
  skins: 'skins--pcx-matches-png',
  sydney: 'quake-ii-players--sydney',
  faerie: 'quake-ii-players--faerie',
  pknight: 'quake-ii-players--p-knight',
  soldier: 'ufo-ai--armed-soldier',
  armed: 'quake-ii-ogro--armed',
  player: 'animation-player-control--keyboard-driven',
  writer: 'writer--twisting-torus',
  failures: 'failures--damaged-file',
  quake2: 'quake-ii-look-lighting--lambert-and-quake-2',
  viewweapon: 'quake-ii-look-lighting--view-weapon',
  shells: 'quake-ii-look-lighting--shells',
  shadows: 'quake-ii-look-lighting--shadows-and-translucency',
  army: 'crowds-army--army-1000',
  viewer: 'tools-viewer--with-ogro',
  colours: 'tools-rigged-character--colours-baked',
}

if (!process.argv.includes('--no-build') || !existsSync(out)) {
  execFileSync('npx', ['storybook', 'build', '--quiet', '-o', out], { cwd: root, stdio: 'inherit' })
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
}
const server = createServer((request, response) => {
  const path = join(out, decodeURIComponent(new URL(request.url, 'http://x').pathname))
  if (!path.startsWith(out) || !existsSync(path) || statSync(path).isDirectory()) {
    response.writeHead(404).end()
    return
  }
  response.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' })
  createReadStream(path).pipe(response)
})
await new Promise((listening) => server.listen(0, '127.0.0.1', listening))
const base = `http://127.0.0.1:${server.address().port}`

mkdirSync(images, { recursive: true })
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking'],
})
try {
  // `--only a,b` makes those pictures alone.
  const only = process.argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
  for (const [name, id] of Object.entries(SHOTS)) {
    if (only && !only.includes(name)) continue
    const page = await browser.newPage({ viewport: { width: 640, height: 400 } })
    await page.goto(`${base}/iframe.html?id=${id}&viewMode=story`)
    await page.waitForSelector('canvas[data-engine]', { timeout: 60_000 })
    // Models, skins and the first frames: software WebGL is slow.
    await page.waitForTimeout(5000)
    await page.screenshot({ path: join(images, `${name}.png`) })
    await page.close()
    console.log(`docs/images/${name}.png ← ${id}`)
  }
} finally {
  await browser.close()
  server.close()
}

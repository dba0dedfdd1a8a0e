#!/usr/bin/env node
/**
 * The README's quick start, as a newcomer meets it: packs this library, creates a fresh Vite
 * React + TypeScript app with the template's own CSS, installs the tarball with the README's install
 * lines, writes the sample models with the quick start's `npx react-three-md2 samples` line (from the
 * package: nothing comes from this repository), pastes the README's quick start as src/App.tsx,
 * builds, serves and opens it in Debian's Chromium. Fails on a console error, a failed request, an
 * empty canvas or a still one; writes a screenshot. Needs the npm registry (create-vite, packages).
 *
 * With `--three VERSION`, the app is an existing R3F 9 app on that three.js (the peer range's floor, say):
 * `three@VERSION` and `@types/three@VERSION`, with @react-three/fiber 9.8 and @react-three/drei 10.7 beside
 * them, are installed first; the README's install lines then keep those versions, and must install the
 * tarball without `--legacy-peer-deps` and without npm reporting ERESOLVE.
 *
 *   node scripts/check-quickstart.mjs [--three 0.159.0] [--keep] [--screenshot path.png]
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright'
import {
  codeBlocks,
  freshViteApp,
  installedVersion,
  npmInstall,
  readmeSection,
  root,
  run,
  samplesCommand,
  writeSamples,
} from './fresh-app.mjs'

const args = process.argv.slice(2)
const keep = args.includes('--keep')
const threeAt = args.indexOf('--three')
const three = threeAt >= 0 ? args[threeAt + 1] : undefined
if (threeAt >= 0 && !/^\d+\.\d+\.\d+$/.test(three ?? '')) throw new Error('--three takes a three.js version, e.g. --three 0.159.0')
const shotAt = args.indexOf('--screenshot')
// The README's picture is the default app's; another three's goes to the temporary folder.
const screenshot =
  shotAt >= 0
    ? resolve(args[shotAt + 1])
    : three
      ? join(tmpdir(), `md2-quickstart-three-${three}.png`)
      : join(root, 'docs/images/quickstart.png')
/** The R3F 9 app's own packages, installed before the library with `--three`: drei's floor is three r159 too. */
const APP_PACKAGES = three ? [`three@${three}`, '@react-three/fiber@9.8', '@react-three/drei@10.7'] : []
const APP_DEV_PACKAGES = three ? [`@types/three@${three}`] : []
/** The README's install words pinned to the app's versions. */
const PINNED = Object.fromEntries([...APP_PACKAGES, ...APP_DEV_PACKAGES].map((spec) => [spec.slice(0, spec.lastIndexOf('@')), spec]))
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const installLines = codeBlocks(readmeSection('Install'), 'sh')[0]
  .split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .filter((line) => line.startsWith('npm install'))
const app = codeBlocks(readmeSection('Quick start'), 'tsx')[0]
if (installLines.length === 0 || !app) throw new Error('README: no install lines or no quick start block found')
const samples = samplesCommand()

const work = mkdtempSync(join(tmpdir(), 'md2-quickstart-'))
let server
try {
  const { appDir, tarball } = freshViteApp(work)
  if (three) {
    npmInstall(APP_PACKAGES, appDir)
    npmInstall(['-D', ...APP_DEV_PACKAGES], appDir)
  }
  for (const line of installLines) {
    // The README installs from the registry; here the package is the tarball just packed. With `--three`,
    // the app's packages keep the versions it has.
    const words = line
      .split(/\s+/)
      .slice(2)
      .map((word) => (word === 'react-three-md2' ? tarball : (PINNED[word] ?? word)))
    npmInstall(words, appDir)
  }
  const installed = (name) => installedVersion(appDir, name)
  const versions = ['three', '@types/three', '@react-three/fiber', 'react', 'react-dom', ...(three ? ['@react-three/drei'] : [])]
    .map((name) => `${name} ${installed(name)}`)
    .join(', ')
  console.log(`installed: ${versions}`)
  if (three && installed('three') !== three) throw new Error(`the app has three ${installed('three')}, not ${three}`)
  writeFileSync(join(appDir, 'src/App.tsx'), app)
  writeSamples(appDir, samples)
  run('npm', ['run', 'build'], appDir)

  server = spawn(process.execPath, [join(appDir, 'node_modules/vite/bin/vite.js'), 'preview', '--port', '4179', '--strictPort'], {
    cwd: appDir,
    stdio: 'ignore',
  })
  for (let i = 0; ; i++) {
    const up = await fetch('http://localhost:4179/').then(
      (response) => response.ok,
      () => false,
    )
    if (up) break
    if (i > 100) throw new Error('vite preview did not start on port 4179')
    await new Promise((done) => setTimeout(done, 200))
  }

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking'],
  })
  const page = await browser.newPage({ viewport: { width: 900, height: 600 } })
  const errors = []
  const warnings = []
  const requests = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
    if (message.type() === 'warning') warnings.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()}`))
  page.on('response', (response) => {
    requests.push(`${response.status()} ${new URL(response.url()).pathname}`)
    if (response.status() >= 400) errors.push(`HTTP ${response.status()} ${response.url()}`)
  })
  await page.goto('http://localhost:4179/', { waitUntil: 'networkidle' })
  await page.waitForSelector('canvas[data-engine]')
  // The WebGL canvas is read through screenshots (its drawing buffer is not preserved). A model that
  // appears late changes the picture once (its skin, once more); an animated one keeps changing, so three
  // changes in a row are asked for. A loaded machine may take a while to draw the first frames, hence the patient deadline.
  const size = await page.evaluate(() => {
    const canvas = document.querySelector('canvas')
    return { width: canvas.clientWidth, height: canvas.clientHeight }
  })
  const deadline = Date.now() + 30_000
  let previous = await page.screenshot()
  let changesInARow = 0
  let shots = 1
  while (changesInARow < 3 && Date.now() < deadline) {
    await page.waitForTimeout(500)
    const next = await page.screenshot({ path: screenshot })
    shots++
    changesInARow = next.equals(previous) ? 0 : changesInARow + 1
    previous = next
  }
  const animated = changesInARow >= 3
  await browser.close()

  console.log(`requests: ${requests.join(', ')}`)
  if (warnings.length > 0) console.log(`console warnings:\n  ${warnings.join('\n  ')}`)
  const problems = [...errors]
  if (size.height < 200) problems.push(`the canvas is ${size.width} × ${size.height} px`)
  if (!animated) problems.push(`the picture did not change three times in a row in ${shots} screenshots half a second apart: not animated`)
  if (problems.length > 0) throw new Error(`quick start failed:\n  ${problems.join('\n  ')}`)
  console.log(
    `quick start OK${three ? ` on three ${three}` : ''}: ${size.width} × ${size.height} canvas, animated (${shots} screenshots), no console error, no failed request; screenshot ${screenshot}`,
  )
} finally {
  server?.kill()
  if (!keep) rmSync(work, { recursive: true, force: true })
  else console.log(`kept ${work}`)
}

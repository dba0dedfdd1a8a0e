#!/usr/bin/env node
/**
 * The README's quick start, as a newcomer meets it: packs this library, creates a fresh Vite
 * React + TypeScript app with the template's own CSS, installs the tarball with the README's install
 * lines, pastes the README's quick start as src/App.tsx, copies the ogro folder as the README says,
 * builds, serves and opens it in Debian's Chromium. Fails on a console error, a failed request, an
 * empty canvas or a still one; writes a screenshot. Needs the npm registry (create-vite, packages).
 *
 *   node scripts/check-quickstart.mjs [--keep] [--screenshot path.png]
 */
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright'

const root = resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const keep = args.includes('--keep')
const shotAt = args.indexOf('--screenshot')
const screenshot = shotAt >= 0 ? resolve(args[shotAt + 1]) : join(root, 'docs/images/quickstart.png')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const readme = readFileSync(join(root, 'README.md'), 'utf8')
const section = (title) => readme.slice(readme.indexOf(`## ${title}`)).split(/\n## /)[0]
const codeBlocks = (text, lang) => [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1])
const installLines = codeBlocks(section('Install'), 'sh')[0]
  .split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .filter((line) => line.startsWith('npm install'))
const app = codeBlocks(section('Quick start'), 'tsx')[0]
if (installLines.length === 0 || !app) throw new Error('README: no install lines or no quick start block found')

const run = (command, commandArgs, cwd) => {
  console.log(`$ ${command} ${commandArgs.join(' ')}`)
  execFileSync(command, commandArgs, { cwd, stdio: ['ignore', 'inherit', 'inherit'] })
}

const work = mkdtempSync(join(tmpdir(), 'md2-quickstart-'))
let server
try {
  run('npm', ['pack', '--pack-destination', work], root)
  const tarball = join(work, `react-three-md2-${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}.tgz`)
  run('npx', ['-y', 'create-vite@latest', 'app', '--template', 'react-ts', '--no-interactive'], work)
  const appDir = join(work, 'app')
  run('npm', ['install', '--no-audit', '--no-fund'], appDir)
  for (const line of installLines) {
    // The README installs from the registry; here the package is the tarball just packed.
    const words = line
      .split(/\s+/)
      .slice(2)
      .map((word) => (word === 'react-three-md2' ? tarball : word))
    run('npm', ['install', '--no-audit', '--no-fund', ...words], appDir)
  }
  writeFileSync(join(appDir, 'src/App.tsx'), app)
  cpSync(join(root, 'assets/quake2/ogro'), join(appDir, 'public/players/ogro'), { recursive: true })
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
  const requests = []
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()}`))
  page.on('response', (response) => {
    requests.push(`${response.status()} ${new URL(response.url()).pathname}`)
    if (response.status() >= 400) errors.push(`HTTP ${response.status()} ${response.url()}`)
  })
  await page.goto('http://localhost:4179/')
  await page.waitForSelector('canvas[data-engine]')
  await page.waitForTimeout(4000)
  // The WebGL canvas is read through screenshots (its drawing buffer is not preserved).
  const size = await page.evaluate(() => {
    const canvas = document.querySelector('canvas')
    return { width: canvas.clientWidth, height: canvas.clientHeight }
  })
  const first = await page.screenshot()
  await page.waitForTimeout(400)
  const second = await page.screenshot({ path: screenshot })
  await browser.close()

  console.log(`requests: ${requests.join(', ')}`)
  const problems = [...errors]
  if (size.height < 200) problems.push(`the canvas is ${size.width} × ${size.height} px`)
  if (first.equals(second)) problems.push('the picture did not change in half a second: not animated')
  if (problems.length > 0) throw new Error(`quick start failed:\n  ${problems.join('\n  ')}`)
  console.log(
    `quick start OK: ${size.width} × ${size.height} canvas, animated, no console error, no failed request; screenshot ${screenshot}`,
  )
} finally {
  server?.kill()
  if (!keep) rmSync(work, { recursive: true, force: true })
  else console.log(`kept ${work}`)
}

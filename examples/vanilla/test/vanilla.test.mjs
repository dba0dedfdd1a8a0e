#!/usr/bin/env node
/**
 * three.js without React, checked: the app's dependencies and its built bundle hold no React; then the
 * built app (dist/) in headless Chromium draws the Ogro, animates it, switches its animation with a
 * crossfade, and draws the crowd, read from the pixels on screen and from `window.__vanilla`. Debian's
 * Chromium (npm cannot download a browser here; CHROMIUM_PATH overrides), WebGL on SwiftShader.
 *
 *   npm run build && npm test
 *
 * Ends with `N passed, M failed`; exits 1 on any failure, a console error or a failed request.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { checks, expect, frames, screenshotPixels, testApp } from '../../scripts/browser.mjs'

const here = join(import.meta.dirname, '..')
const dist = join(here, 'dist')
/** Software WebGL on two busy cores may draw a frame or two a second: deadlines are generous, never fixed sleeps to pass. */
const TIMEOUT = 60_000
const REACT_PACKAGES = ['react', 'react-dom', '@react-three/fiber', 'react-reconciler', 'scheduler']
/**
 * Strings React's and React DOM's builds keep whatever the minifier does (element symbols, internals,
 * error URLs, hook names and Component's flag as properties), and R3F's package name. A bundler keeps
 * only what is used: an app calling nothing but `useState` still carries it and `isPureReactComponent`.
 */
const REACT_MARKERS = [
  'react.transitional.element',
  'react.element',
  '__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE',
  '__SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED',
  'react.dev/errors',
  'isPureReactComponent',
  'react.production',
  'react-dom',
  'useState',
  'useSyncExternalStore',
  '@react-three/fiber',
]

// The screen (800 × 600): the Ogro stands in the middle; the crowd alone fills both sides behind it, beyond
// where the Ogro's arms and weapon reach in any of its animations (they were seen as far as x = 604).
const BACKGROUND = [0x1d, 0x27, 0x33]
const OGRO = { x0: 330, x1: 470, y0: 320, y1: 560 }
const SIDES = [
  { x0: 0, x1: 150, y0: 150, y1: 450 },
  { x0: 650, x1: 800, y0: 150, y1: 450 },
]

/** Pixels of `region` (all the screen by default) for which `accept(r, g, b, index)` holds. */
function countPixels({ width, height, data }, accept, region = { x0: 0, x1: width, y0: 0, y1: height }) {
  let count = 0
  for (let y = region.y0; y < region.y1; y++) {
    for (let x = region.x0; x < region.x1; x++) {
      const i = (y * width + x) * 4
      if (accept(data[i], data[i + 1], data[i + 2], i)) count++
    }
  }
  return count
}
const far = (r, g, b, [r0, g0, b0]) => Math.abs(r - r0) + Math.abs(g - g0) + Math.abs(b - b0) > 24
/** Pixels of `regions` that differ between two screenshots. */
const changed = (a, b, regions) =>
  regions.reduce((sum, region) => sum + countPixels(a, (r, g, bl, i) => far(r, g, bl, b.data.subarray(i, i + 3)), region), 0)
/** The box holding every pixel of `regions` that differs between two screenshots. */
function changedBox(a, b, regions) {
  const box = { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity }
  for (const region of regions)
    countPixels(
      a,
      (r, g, bl, i) => {
        if (!far(r, g, bl, b.data.subarray(i, i + 3))) return false
        const x = (i / 4) % a.width
        const y = Math.floor(i / 4 / a.width)
        Object.assign(box, { x0: Math.min(box.x0, x), x1: Math.max(box.x1, x), y0: Math.min(box.y0, y), y1: Math.max(box.y1, y) })
        return true
      },
      region,
    )
  return box
}
const area = (regions) => regions.reduce((sum, { x0, x1, y0, y1 }) => sum + (x1 - x0) * (y1 - y0), 0)

const { check, finish } = checks()

await check('no React among the dependencies: package.json and the lockfile npm installed from', async () => {
  const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'))
  const declared = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => REACT_PACKAGES.includes(name))
  expect(declared.length === 0, `package.json depends on ${declared.join(', ')}`)
  const lock = JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8'))
  const installed = REACT_PACKAGES.filter((name) => lock.packages[`node_modules/${name}`])
  expect(installed.length === 0, `package-lock.json installs ${installed.join(', ')}`)
  // The library declares React as optional peers: that is why npm left it out.
  const library = lock.packages['node_modules/react-three-md2']
  expect(library?.peerDependenciesMeta?.react?.optional === true, `react-three-md2 in the lockfile: ${JSON.stringify(library)}`)
})

await check('no React in the built bundle (dist/assets/*.js), which holds the library and three.js', async () => {
  const scripts = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js'))
  expect(scripts.length > 0, 'no script in dist/assets: run npm run build first')
  const code = scripts.map((file) => readFileSync(join(dist, 'assets', file), 'utf8')).join('\n')
  const found = REACT_MARKERS.filter((marker) => code.includes(marker))
  expect(found.length === 0, `React in the bundle: ${found.join(', ')}`)
  // Not a pass by an empty bundle: the library's missing-skin texture and three's renderer are in it.
  expect(code.includes('react-three-md2:missing-skin') && code.includes('WebGLRenderer'), 'the bundle lacks the library or three.js')
})

await testApp({ chromium, dist, probe: '__vanilla', check, timeout: TIMEOUT }, async ({ page, requests, state: app, waitFor }) => {
  /** Shows or hides the crowd (C), and waits for two frames drawn so. */
  const showCrowd = async (shown) => {
    if ((await app()).crowdShown !== shown) await page.keyboard.press('c')
    await waitFor((s) => s.crowdShown === shown, `the crowd ${shown ? 'shown' : 'hidden'}`)
    await frames(page, 2)
  }

  await check('the page draws: the model and its skin load, the canvas is not the bare background', async () => {
    await waitFor((s) => s.frames >= 3, 'three frames drawn')
    for (const file of ['/players/ogro/tris.MD2', '/players/ogro/igdosh.pcx']) {
      expect(requests.includes(file), `${file} was not requested (requests: ${requests.join(', ')})`)
    }
    const shot = await screenshotPixels(page)
    const drawn = countPixels(shot, (r, g, b) => far(r, g, b, BACKGROUND))
    expect(drawn > 0.4 * shot.width * shot.height, `${drawn} of ${shot.width * shot.height} pixels differ from the background`)
    // The Ogro in front, skinned: its pixels are neither the background nor the floor beside its feet.
    const floor = Array.from(shot.data.subarray((590 * shot.width + 20) * 4, (590 * shot.width + 20) * 4 + 3))
    const ogro = countPixels(shot, (r, g, b) => far(r, g, b, BACKGROUND) && far(r, g, b, floor), OGRO)
    expect(ogro > 0.3 * area([OGRO]), `${ogro} of ${area([OGRO])} pixels where the Ogro stands differ from the floor (${floor})`)
  })

  await check('the crowd: 300 placed, some drawn, and they are what fills the sides of the screen', async () => {
    const state = await waitFor((s) => s.drawn > 0, 'crowd instances drawn')
    expect(state.crowd === 300 && state.drawn <= 300, `${state.drawn} drawn of ${state.crowd}`)
    await showCrowd(true)
    const shown = await screenshotPixels(page)
    await showCrowd(false)
    const hidden = await screenshotPixels(page)
    await frames(page, 2)
    const hiddenLater = await screenshotPixels(page)
    // Hidden, the sides are floor and sky and do not change; shown, the crowd covers much of them.
    const still = changed(hidden, hiddenLater, SIDES)
    expect(
      still === 0,
      `${still} pixels of the sides changed with the crowd hidden, within ${JSON.stringify(changedBox(hidden, hiddenLater, SIDES))}`,
    )
    const crowd = changed(shown, hidden, SIDES)
    expect(crowd > 0.15 * area(SIDES), `the crowd covers ${crowd} of ${area(SIDES)} pixels of the sides`)
  })

  await check('the model animates: its frame moves on and its pixels change', async () => {
    // The crowd hidden, so that only the Ogro moves.
    await showCrowd(false)
    const before = await app()
    const first = await screenshotPixels(page)
    const after = await waitFor((s) => s.frames >= before.frames + 2 && s.frame !== before.frame, 'the controller to move on')
    await frames(page, 1)
    const second = await screenshotPixels(page)
    const moved = changed(first, second, [OGRO])
    expect(moved > 2000, `${moved} pixels where the Ogro stands changed between frame ${before.frame} and ${after.frame}`)
    await showCrowd(true)
  })

  await check('Space plays the next animation with a crossfade; the animations also change on their own', async () => {
    const before = await app()
    await page.keyboard.press(' ')
    // The old pose held, fading out: weight 1 right after the switch, down to 0 over half a second.
    const fading = await waitFor((s) => s.animation !== before.animation && s.fading > 0, 'a new animation, crossfading')
    await waitFor((s) => s.fading === 0 && s.frames > fading.frames, 'the crossfade to end')
    const now = (await app()).animation
    await waitFor((s) => s.animation !== now, 'the next animation, on the timer', 20_000)
  })
})

finish()

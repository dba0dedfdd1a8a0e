#!/usr/bin/env node
/**
 * The two MD2 pages (src/characterPage.js, src/controlPage.js), built (dist/ with the library's classes,
 * dist-three/ with three's own: see vite.config.ts), checked in headless Chromium with the same checks whichever classes the build holds:
 * loadParts calls onLoadComplete; the clips are listed by name (and the page's GUI shows them); the model
 * draws and animates; setPlaybackRate(0) (the GUI's speed) freezes it; setSkin, setWeapon and setWireframe
 * (the GUI's buttons) change the picture; on the control page, shareParts draws the other characters and the
 * arrow key (controls.moveForward) moves the roots and plays `move` ('run'). The page's state is read from
 * src/probe.js (`window.__md2`), the picture from screenshots. Debian's Chromium, WebGL on SwiftShader.
 *
 *   npm run build && node test/three-md2.test.mjs dist        # or dist-three
 *
 * Ends with `N passed, M failed`; exits 1 on any failure, a console error or a failed request.
 */
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { checks, expect, frames, screenshotPixels, testApp } from '../../scripts/browser.mjs'

const here = join(import.meta.dirname, '..')
const build = process.argv[2] ?? 'dist'
const dist = join(here, build)
/** Software WebGL on two busy cores draws a frame or two a second: generous deadlines, no fixed sleeps to pass. */
const TIMEOUT = 60_000
console.log(`examples/three-md2 (${build}: ${build === 'dist-three' ? "three.js's classes" : "the library's classes"})`)

// The 800 × 600 screen: the character stands in the middle, clear of the stats panel and the GUI.
const MIDDLE = { x0: 250, x1: 550, y0: 150, y1: 560 }

/** Pixels of `region` where two screenshots differ by more than a little. */
function changed(a, b, region) {
  let count = 0
  for (let y = region.y0; y < region.y1; y++) {
    for (let x = region.x0; x < region.x1; x++) {
      const i = (y * a.width + x) * 4
      if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 30) count++
    }
  }
  return count
}

/** Pixels of `region` for which `accept(r, g, b)` holds. */
function count({ width, data }, region, accept) {
  let n = 0
  for (let y = region.y0; y < region.y1; y++)
    for (let x = region.x0; x < region.x1; x++)
      if (accept(data[(y * width + x) * 4], data[(y * width + x) * 4 + 1], data[(y * width + x) * 4 + 2])) n++
  return n
}

/** Screenshots after `n` frames drawn, until two in a row agree in `region` (a change shown has settled). */
async function settled(page, region, n = 3) {
  let last = await screenshotPixels(page)
  for (let tries = 0; tries < 10; tries++) {
    await frames(page, n)
    const next = await screenshotPixels(page)
    if (changed(last, next, region) === 0) return next
    last = next
  }
  throw new Error('the picture kept changing')
}

const { check, finish } = checks()

await testApp({ chromium, dist, probe: '__md2', check, timeout: TIMEOUT }, async ({ page, requests, waitFor }) => {
  await check('the MD2Character page: loadParts calls onLoadComplete (the body, 5 skins, 11 weapons and their skins)', async () => {
    const state = await waitFor((s) => s.characters[0]?.loaded && s.frames >= 3, 'onLoadComplete and three frames')
    const [character] = state.characters
    expect(character.skins === 5 && character.weapons === 11, `${character.skins} skins, ${character.weapons} weapons`)
    expect(requests.includes('/models/md2/ratamahatta/ratamahatta.md2'), `requests: ${requests.join(', ')}`)
  })

  await check("the clips are listed by name, as three's loader names them, and the page's GUI lists them", async () => {
    const [character] = (await waitFor((s) => s.characters[0]?.clips.length > 0, 'clips')).characters
    const wanted = [
      'stand',
      'run',
      'attack',
      'pain',
      'jump',
      'flip',
      'salute',
      'taunt',
      'wave',
      'point',
      'crstand',
      'crwalk',
      'crattack',
      'crpain',
      'crdeath',
      'death',
    ]
    expect(JSON.stringify(character.clips) === JSON.stringify(wanted), `clips ${JSON.stringify(character.clips)}`)
    expect(character.activeAnimation === 'stand', `playing ${character.activeAnimation}`)
    for (const name of ['run', 'crwalk', 'death']) {
      expect((await page.locator('.lil-gui .controller .name', { hasText: new RegExp(`^${name}$`) }).count()) === 1, `no GUI entry ${name}`)
    }
  })

  await check('the model draws and animates (run, from the GUI)', async () => {
    await page.locator('.lil-gui button', { hasText: /^run$/ }).click()
    await waitFor((s) => s.characters[0].activeAnimation === 'run', 'run playing')
    const a = await screenshotPixels(page)
    const drawn = count(a, MIDDLE, (r, g, b) => r + g + b > 60)
    expect(drawn > 3000, `${drawn} pixels drawn in the middle`)
    await frames(page, 4)
    const b = await screenshotPixels(page)
    expect(changed(a, b, MIDDLE) > 200, `${changed(a, b, MIDDLE)} pixels changed`)
  })

  await check('setPlaybackRate(0) (speed 0 in the GUI) freezes it', async () => {
    const speed = page.locator('.lil-gui .controller.number input').first()
    await speed.fill('0')
    await speed.press('Enter')
    const a = await settled(page, MIDDLE)
    await frames(page, 6)
    const b = await screenshotPixels(page)
    expect(changed(a, b, MIDDLE) === 0, `${changed(a, b, MIDDLE)} pixels changed at speed 0`)
  })

  await check('setSkin, setWeapon and setWireframe (the GUI) each change the picture', async () => {
    let before = await settled(page, MIDDLE)
    for (const [what, locator, least] of [
      ['skin ctf_b', page.locator('.lil-gui button', { hasText: /^ctf_b$/ }), 500],
      ['weapon w_bfg', page.locator('.lil-gui button', { hasText: /^w_bfg$/ }), 50],
      ['wireframe', page.locator('.lil-gui .controller.boolean input'), 500],
    ]) {
      await locator.click()
      const after = await settled(page, MIDDLE)
      const n = changed(before, after, MIDDLE)
      expect(n > least, `${what}: ${n} pixels changed`)
      before = after
    }
  })
})

await testApp({ chromium, dist, probe: '__md2', check, timeout: TIMEOUT, path: 'control.html' }, async ({ page, waitFor }) => {
  const sky = (r, g, b) => r > 235 && g > 235 && b > 235
  const grass = (r, g, b) => g > r + 20 && g > b + 20
  await check('the MD2CharacterComplex page: loadParts calls onLoadComplete, and shareParts makes 13 characters that draw', async () => {
    const state = await waitFor((s) => s.characters.length === 14 && s.characters.every((c) => c.loaded) && s.frames >= 3, '14 characters')
    expect(
      state.characters.slice(1).every((c) => c.clips.includes('run')),
      'a shared character lists no run',
    )
    await frames(page, 3)
    const shot = await screenshotPixels(page)
    // The row of characters across the screen: columns holding something that is neither sky nor grass.
    let columns = 0
    for (let x = 0; x < shot.width; x += 4) {
      if (count(shot, { x0: x, x1: x + 1, y0: 100, y1: 500 }, (r, g, b) => !sky(r, g, b) && !grass(r, g, b) && r + g + b < 500) > 10)
        columns++
    }
    expect(columns > 60, `${columns} of ${shot.width / 4} columns hold a character`)
  })

  await check('the arrow key (controls.moveForward) moves every root and plays move (run); let go, they stand', async () => {
    const before = (await waitFor((s) => s.characters[1]?.activeAnimation === 'stand', 'standing')).characters
    await page.keyboard.down('ArrowUp')
    const moving = (await waitFor((s) => s.characters[1].position[2] > before[1].position[2] + 50, 'the roots moved forward')).characters
    await page.keyboard.up('ArrowUp')
    expect(
      moving.slice(1).every((c) => c.activeAnimation === 'run'),
      `playing ${moving.map((c) => c.activeAnimation).join(', ')}`,
    )
    await waitFor((s) => s.characters.slice(1).every((c) => c.activeAnimation === 'stand'), 'standing again')
  })
})

finish()

#!/usr/bin/env node
/**
 * The arena, played in headless Chromium: serves the built app (dist/) on 127.0.0.1, drives it with
 * the keyboard and the mouse, and reads the game's state from `window.__arena`. Debian's Chromium
 * (npm cannot download a browser here; CHROMIUM_PATH overrides), WebGL on SwiftShader.
 *
 *   npm run build && npm test
 *
 * Ends with `N passed, M failed`; exits 1 on any failure, a console error or a failed request.
 */
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { checks, expect, frames as framesOf, testApp } from '../../scripts/browser.mjs'

/** Software WebGL on two cores draws a few frames a second: deadlines are generous, never fixed sleeps to pass. */
const TIMEOUT = 30_000

/** Keys a check holds down: let go of them whatever happened, so a failure does not spill into the next check. */
let releaseKeys = async () => {}
const { check, finish } = checks({ afterEach: () => releaseKeys() })

await testApp(
  {
    chromium,
    dist: join(import.meta.dirname, '../dist'),
    probe: '__arena',
    check,
    timeout: TIMEOUT,
    // The whole state holds every enemy: a failure names where the player was.
    lastSeen: (state) => `player ${JSON.stringify(state?.player)}`,
  },
  async ({ page, requests, state: game, waitFor }) => {
    const frames = (n) => framesOf(page, n)
    const distance = (a, b) => Math.hypot(a.x - b.x, a.z - b.z)

    releaseKeys = async () => {
      for (const key of ['w', 'a', 'c', 'ArrowRight']) await page.keyboard.up(key)
    }

    await check('the arena loads: both models, their skins and weapons, 200 enemies placed, each drawn with its weapon', async () => {
      const state = await waitFor((s) => s.ready && s.drawn.enemies > 0, 'window.__arena.ready and enemies drawn', 60_000)
      expect(state.enemies.length === 200, `${state.enemies.length} enemies`)
      // The weapons' crowd follows the bodies': drawn exactly where a body is (culled with it).
      expect(state.drawn.weapons === state.drawn.enemies, `${state.drawn.enemies} enemies drawn, ${state.drawn.weapons} weapons`)
      await frames(3)
      for (const file of [
        '/players/ogro/tris.MD2',
        '/players/ogro/igdosh.pcx',
        '/players/ogro/weapon.md2',
        '/players/ogro/weapon.pcx',
        '/players/ratamahatta/tris.md2',
        '/players/ratamahatta/Ratamahatta.pcx',
        '/players/ratamahatta/weapon.MD2',
        '/players/ratamahatta/weapon.pcx',
      ]) {
        expect(requests.includes(file), `${file} was not requested (requests: ${requests.join(', ')})`)
      }
      // The first pixels differ from the background colour: the floor and the models are drawn.
      const shot = await page.screenshot()
      expect(shot.length > 20_000, `the screenshot is ${shot.length} bytes: an empty page?`)
    })

    await check('W runs: the player moves, its animation becomes run (Quake II player rules)', async () => {
      await page.evaluate(() => window.__arena.place(0, 0, 0.3))
      await frames(2)
      const start = (await game()).player
      expect(start.animation === 'stand', `the player starts in ${start.animation}, not stand`)
      await page.keyboard.down('w')
      await waitFor((s) => s.player.animation === 'run', 'the run animation')
      const moved = await waitFor((s) => distance(s.player, start) > 100, 'the player to move 100 units')
      expect(Math.abs(moved.player.yaw - start.yaw) < 1e-9, 'W alone turned the player')
      await page.keyboard.up('w')
      await waitFor((s) => s.player.animation === 'stand', 'the stand animation after letting go of W')
    })

    await check('footsteps are counted from the run keyframes while running, and stop when standing', async () => {
      await page.evaluate(() => window.__arena.place(0, 0, -0.3))
      const before = (await game()).footsteps
      await page.keyboard.down('w')
      await waitFor((s) => s.footsteps >= before + 3, `3 more footsteps than ${before}`)
      await page.keyboard.up('w')
      await waitFor((s) => s.player.animation === 'stand', 'the stand animation after letting go of W')
      const standing = (await game()).footsteps
      await page.waitForTimeout(1500)
      const later = (await game()).footsteps
      expect(later === standing, `footsteps went on while standing: ${standing} → ${later}`)
    })

    await check('A and the right arrow turn the player', async () => {
      const start = (await game()).player.yaw
      await page.keyboard.down('a')
      const left = await waitFor((s) => s.player.yaw > start + 0.3, 'A to turn left')
      await page.keyboard.up('a')
      await page.keyboard.down('ArrowRight')
      await waitFor((s) => s.player.yaw < left.player.yaw - 0.3, 'the right arrow to turn right')
      await page.keyboard.up('ArrowRight')
    })

    await check(
      'Space jumps (the jump animation, off the ground), C crouches (the crouched stand, cstand in the ogro frame names)',
      async () => {
        const floor = (await game()).player.y
        await page.keyboard.press(' ')
        await waitFor((s) => s.player.y > floor + 10, 'the player to leave the floor')
        await waitFor((s) => s.player.animation === 'jump', 'the jump animation')
        await waitFor((s) => s.player.y === floor && s.player.animation === 'stand', 'landing, back to stand')
        await page.keyboard.down('c')
        await waitFor((s) => s.player.animation === 'cstand', 'the crouched stand')
        await page.keyboard.up('c')
        await waitFor((s) => s.player.animation === 'stand', 'standing up again')
      },
    )

    await check('F at enemy 0 hurts it: a pain animation, no kill', async () => {
      // From the middle, where nothing stands between the player and the inner ring.
      await page.evaluate(() => window.__arena.place(0, 0, 0))
      await frames(2)
      const start = await game()
      expect(start.enemies[0].state === 'stand', `enemy 0 is ${start.enemies[0].state}`)
      await page.evaluate(() => window.__arena.aimAt(0))
      await frames(2)
      await page.keyboard.press('f')
      const hurt = await waitFor((s) => s.shots === start.shots + 1, 'the shot')
      expect(hurt.lastHit === 0, `the shot hit ${hurt.lastHit}, not enemy 0`)
      // The pain lasts 0.4 s before the enemy stands again: its count and its health say it happened.
      const enemy = hurt.enemies[0]
      expect(enemy.pains === 1 && enemy.health === 1 && ['pain', 'stand'].includes(enemy.state), `enemy 0 is ${JSON.stringify(enemy)}`)
      expect(hurt.kills === 0, `${hurt.kills} kills`)
    })

    await check('a second shot kills it: its death plays once, keyframe by keyframe, and it lies dead', async () => {
      await page.evaluate(() => window.__arena.aimAt(0))
      await frames(2)
      await page.keyboard.press('f')
      const dying = await waitFor((s) => s.enemies[0].deaths === 1, 'enemy 0 to start dying')
      expect(dying.kills === 1, `${dying.kills} kills`)
      const dead = await waitFor((s) => s.enemies[0].state === 'dead', 'enemy 0 to be dead')
      // Enemy 0 dies by death1 (frames 178–183): its keyframes reported in order, none twice, ending on
      // the last. (Not necessarily all six: the library's events skip some within a frame longer than a second.)
      const seen = dead.enemies[0].deathFrames
      expect(seen.at(-1) === 183, `death keyframes ${seen.join(', ')} do not end on 183`)
      expect(
        seen.every((f, k) => f >= 178 && f <= 183 && (k === 0 || f > seen[k - 1])),
        `death keyframes ${seen.join(', ')}`,
      )
    })

    await check('a dead enemy stays dead: more shots hit the corpse, kill nothing, replay nothing', async () => {
      const before = await game()
      for (let shot = 0; shot < 2; shot++) {
        await page.evaluate(() => window.__arena.aimAt(0))
        await frames(2)
        await page.keyboard.press('f')
        await waitFor((s) => s.shots === before.shots + shot + 1, `shot ${shot + 1} at the corpse`)
      }
      await page.waitForTimeout(2000)
      const after = await game()
      const [was, is] = [before.enemies[0], after.enemies[0]]
      expect(is.state === 'dead' && is.deaths === 1 && after.kills === before.kills, `enemy 0 ${JSON.stringify(is)}, kills ${after.kills}`)
      expect(is.deathFrames.join() === was.deathFrames.join(), `the death went on: ${was.deathFrames} → ${is.deathFrames}`)
      // Not a pass by missing: the shots reached the corpse.
      expect(after.lastHit === 0, `the shots at the corpse hit ${after.lastHit}, not enemy 0`)
    })

    await check('a click at the crosshair shoots too: enemy 2 hurt, then killed', async () => {
      const start = await game()
      for (const [expected, done] of [
        ['a pain', (enemy) => enemy.pains === 1 && enemy.health === 1],
        ['death', (enemy) => enemy.state === 'dead'],
      ]) {
        await page.evaluate(() => window.__arena.aimAt(2))
        await frames(2)
        await page.mouse.click(400, 300)
        await waitFor((s) => done(s.enemies[2]), `enemy 2's ${expected}`)
      }
      const end = await game()
      expect(end.kills === start.kills + 1 && end.enemies[2].deaths === 1, `kills ${end.kills}, enemy 2 ${JSON.stringify(end.enemies[2])}`)
    })

    await check('T aims at the nearest enemy standing, even facing away: T F F kills it', async () => {
      // The nearest enemies are ahead of (100, -200) on the ring, bearing 2.7: the player faces the other way.
      await page.evaluate(() => window.__arena.place(100, -200, -0.5))
      await frames(2)
      const start = await game()
      for (const key of ['t', 'f', 'f']) await page.keyboard.press(key)
      const end = await waitFor((s) => s.kills === start.kills + 1, 'a kill')
      expect(end.shots === start.shots + 2, `${end.shots - start.shots} shots`)
    })

    await check("an enemy's pose box stops the player running into it", async () => {
      // Enemy 4 stands on the inner ring; the player starts 150 units nearer the centre, facing it. Its
      // neighbours (2 and 6) stand 33 units to either side: one of the three stops the player.
      const { enemies } = await game()
      const target = enemies[4]
      expect(target.state === 'stand', `enemy 4 is ${target.state}`)
      const ring = Math.hypot(target.x, target.z)
      const angle = Math.atan2(target.x, target.z)
      await page.evaluate(([r, a]) => window.__arena.place(Math.sin(a) * r, Math.cos(a) * r, a), [ring - 150, angle])
      await frames(2)
      const before = await game()
      await page.keyboard.down('w')
      // Without colliders the player runs through in half a second (300 units a second).
      await waitFor((s) => s.blocked > before.blocked, 'a blocked move')
      await page.waitForTimeout(1500)
      const after = await game()
      await page.keyboard.up('w')
      const gap = distance(after.player, target)
      expect(
        [2, 4, 6].includes(after.blockedBy) && Math.hypot(after.player.x, after.player.z) < ring - 10 && gap > 10 && gap < 100,
        `the player is ${gap.toFixed(1)} units from enemy 4, last blocked by ${after.blockedBy}, its box ${JSON.stringify(after.playerBox)}`,
      )
    })
  },
)

finish()

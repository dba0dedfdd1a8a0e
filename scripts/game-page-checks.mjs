/**
 * What scripts/check-game.mjs checks on two of its pages, as a user would see them: `#physics` (the README's game
 * with physics, driven and read through rapier's world) and `#strict` (an `<MD2Instance>`'s events, an `.anm` by
 * URL, misplaced props). Each takes the page `testApp` opened and the `check` that counts the results.
 */
import { expect, frames } from '../examples/scripts/browser.mjs'

/** rapier's start-up warning (its wasm-bindgen's deprecated init call) and fiber's THREE.Clock: known noise. */
const KNOWN_NOISE = ['using deprecated parameters for the initialization function', 'THREE.Clock: This module has been deprecated']

/**
 * The physics game: the player on the floor, walking into the enemy in its way and held there; an enemy clicked
 * falls, and its collider with it.
 */
export async function checkPhysicsPage({ page, warnings, waitFor, state }, check) {
  const started = Date.now()
  // The models loaded and every collider fitted to its character standing (1.7 m; made at rapier's 2 m).
  const fitted = (box) => box && box.maxY - box.minY > 1.5 && box.maxY - box.minY < 1.95
  const loaded = await waitFor(
    (s) => fitted(s.player) && s.enemies.length === s.places.length && s.enemies.every(fitted),
    'the player and the enemies to load, their colliders fitted',
  )
  console.log(`      loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  // Each enemy's collider, told by where it stood once loaded (a fallen one lies elsewhere).
  // (A patrol runs `patrol` metres either side of its place.)
  const handles = loaded.places.map(
    ({ x, z, patrol = 0 }) => loaded.enemies.find((box) => Math.hypot(box.x - x, box.z - z) < 0.5 + patrol)?.handle,
  )
  const enemyAt = (seen, id) => seen.enemies.find((box) => box.handle === handles[id])
  const drive = (forward) => page.evaluate((value) => (window.checks.controls.forward = value), forward)
  const cm = (metres) => `${(metres * 100).toFixed(1)} cm`
  await check('physics: the player stands on the rapier floor', async () => {
    await frames(page, 30)
    const { player, enemies } = await state()
    expect(
      handles.every((handle) => handle !== undefined),
      `enemies' colliders at ${JSON.stringify(enemies)}, not at their places`,
    )
    expect(Math.abs(player.minY) < 0.05, `the player's feet ${cm(player.minY)} from the floor (top at y = 0)`)
    console.log(`      feet ${cm(player.minY)} from the floor`)
  })
  await check('physics: the player walks forward > 1.5 m and stops at the enemy in its way, even pushed on', async () => {
    const start = (await state()).player
    await drive(1)
    let last = Infinity
    let now = start
    for (let tries = 0; tries < 40; tries++) {
      await frames(page, 10)
      now = (await state()).player
      if (Math.abs(now.z - last) < 1e-3) break
      last = now.z
    }
    await frames(page, 20)
    const pushed = await state()
    await drive(0)
    const enemy = enemyAt(pushed, 0)
    const walked = start.z - now.z
    const gap = now.z - now.halfZ - (enemy.z + enemy.halfZ)
    const said = `walked ${walked.toFixed(2)} m, stopped ${cm(gap)} from the enemy's collider (centre z ${now.z.toFixed(2)}, enemy's front ${(enemy.z + enemy.halfZ).toFixed(2)}), then ${cm(now.z - pushed.player.z)} further after 20 frames pushing, feet ${cm(pushed.player.minY)} from the floor`
    expect(walked > 1.5, said)
    // The enemy's box keeps to its pose: it breathes and swings its arms by up to 30 cm as it stands.
    expect(gap > -0.35 && gap < 0.15, said)
    expect(pushed.player.z > enemy.z + 0.5, said)
    expect(Math.abs(pushed.player.minY) < 0.1, said)
    console.log(`      ${said}`)
  })
  await check('physics: a click on an enemy kills it, and its collider falls with it', async () => {
    const id = 1
    const before = await state()
    const standing = enemyAt(before, id)
    const [x, y] = before.onScreen[id]
    // A click as a user's, at the enemy's chest on screen; another only where the first did not take (the
    // collider's top not lowered 10 cm within 3 s: the death starts from a crossfade).
    let clicks = 0
    const deadline = Date.now() + 30_000
    for (let falling = false; !falling;) {
      await page.mouse.click(x, y)
      clicks++
      for (const waited = Date.now(); !falling && Date.now() - waited < 3_000; await page.waitForTimeout(100))
        falling = enemyAt(await state(), id).maxY < standing.maxY - 0.1
      expect(
        falling || Date.now() < deadline,
        `enemy ${id}'s collider still ${enemyAt(await state(), id).maxY.toFixed(2)} m tall after ${clicks} clicks at (${x.toFixed(0)}, ${y.toFixed(0)})`,
      )
    }
    const fallen = await waitFor((s) => enemyAt(s, id).maxY < 0.6 * standing.maxY, `enemy ${id}'s collider to lie down`, 20_000)
    const lying = enemyAt(fallen, id)
    const others = [0, 2].map((other) => enemyAt(fallen, other).maxY)
    const said = `collider's top ${standing.maxY.toFixed(2)} → ${lying.maxY.toFixed(2)} m (${((lying.maxY / standing.maxY) * 100).toFixed(0)}%) after ${clicks} click(s), bottom ${cm(lying.minY)} from the floor, ${Math.hypot(lying.x - loaded.places[id].x, lying.z - loaded.places[id].z).toFixed(2)} m from where it stood; the others' tops ${others.map((top) => top.toFixed(2)).join(', ')} m`
    expect(Math.abs(lying.minY) < 0.15 && Math.hypot(lying.x - loaded.places[id].x, lying.z - loaded.places[id].z) < 1.5, said)
    expect(
      others.every((top) => top > 1.4),
      said,
    )
    console.log(`      ${said}`)
  })
  await check('physics: no console warning but the known noise', async () => {
    const unknown = warnings.filter((text) => !KNOWN_NOISE.some((noise) => text.includes(noise)))
    expect(unknown.length === 0, `warnings: ${JSON.stringify(unknown)}`)
  })
}

/**
 * The events of a crowd's instances, as the page saw them: the dying one's frames once each in order, then its
 * end once and no loop; the running one's frames in order, round and round, with one loop at each wrap.
 */
export async function checkStrictPage({ waitFor, warnings }, { development, check }) {
  const built = development ? "on Vite's dev server, in <StrictMode>" : 'in the production build'
  const seen = await waitFor(
    (s) => s.dying.includes('end') && s.running.filter((e) => e === 'loop').length >= 2 && s.frames.length > 5,
    'the crowd to play its death and two runs round, and the soldier to walk',
  )
  await check(`<MD2Instance> events ${built}: frames, loop and end once each, in order`, async () => {
    const [start, end] = seen.range.death1
    const dying = seen.dying
    const frames = Array.from({ length: end - start + 1 }, (_, i) => start + i)
    expect(JSON.stringify(dying) === JSON.stringify([...frames, 'end']), `death1 ${start}–${end}: ${JSON.stringify(dying)}`)
    // The running one goes round: frames rise within a lap, a loop between laps (once, after the last frame but
    // where a hitch of more than a lap skipped frames, reported as the clock documents: one lap at most).
    const [runStart, runEnd] = seen.range.run
    const running = seen.running
    const said = `run ${runStart}–${runEnd}: ${JSON.stringify(running)}`
    expect(running[0] === runStart && running.filter((e) => e === 'loop').length >= 2 && !running.includes('end'), said)
    for (let i = 1; i < running.length; i++) {
      const [before, now] = [running[i - 1], running[i]]
      if (now === 'loop') expect(before !== 'loop', `two loops in a row at ${i}: ${said}`)
      else if (before === 'loop') expect(now === runStart, `a lap not starting at ${runStart}, at ${i}: ${said}`)
      else expect(now > before && now <= runEnd, `frame ${now} after ${before} in one lap, at ${i}: ${said}`)
    }
  })
  await check(`an animation table loaded by URL plays ${built}`, async () => {
    const walking = await waitFor((s) => new Set(s.frames).size > 5, 'the soldier to walk')
    expect(walking.table > 10 && walking.animation === 'walk1', `table of ${walking.table}, playing ${walking.animation}`)
  })
  await check(
    development ? 'misplaced props warn once, naming where they belong' : 'the production build warns of no misplaced prop',
    async () => {
      const misplaced = warnings.filter((text) => text.includes('does nothing here'))
      if (!development) return expect(misplaced.length === 0, `warnings: ${JSON.stringify(misplaced)}`)
      const once = (what) => misplaced.filter((text) => text.includes(what)).length === 1
      expect(
        once('<MD2Instances animation> does nothing here: `animation` belongs on <MD2Instance>') &&
          once('<MD2Player url> does nothing here: <MD2Player> takes `path`') &&
          misplaced.length === 2,
        `warnings: ${JSON.stringify(warnings)}`,
      )
    },
  )
}

/**
 * The GPU crowd's CPU side: one `MD2Crowd.update` (animation, culling, writing the per-instance
 * attributes) for 10,000 Ogros, all in view and with the camera seeing a quarter of them, with a tenth
 * of them crossfading at any time. What a frame costs the page besides three's render call.
 */
import { PerspectiveCamera, Vector3 } from 'three'
import { parseMD2 } from '../src/core/format/parseMD2'
import { MD2Crowd } from '../src/three/crowd/MD2Crowd'
import { followCrowd } from '../src/three/crowd/followCrowd'
import { parseMD2Tags } from '../src/core/tags/parseMD2Tags'
import { OGRO, OGRO_WEAPON, SOLDIER, SOLDIER_HEAD, SOLDIER_TAGS, readArrayBuffer } from './lib/models'
import { type Table, CLOCK, fmt, median, now } from './lib/stats'

export function runCrowdCpuBench(options: { rounds: number; frames: number }): Table {
  const model = parseMD2(readArrayBuffer(OGRO), { name: 'tris.MD2' })
  const n = 10_000
  const crowd = new MD2Crowd(model, { limit: n })
  const side = Math.ceil(Math.sqrt(n))
  const position = new Vector3()
  for (let i = 0; i < n; i++) {
    crowd.setTransform(i, { position: position.set((i % side) * 60 - side * 30, 0, Math.floor(i / side) * 60 - side * 30), rotation: i })
    crowd.play(i, i % 3 ? 'run' : 'stand')
  }
  const wide = new PerspectiveCamera(90, 4 / 3, 1, 100_000)
  wide.position.set(0, 12_000, 1)
  wide.lookAt(0, 0, 0)
  const narrow = new PerspectiveCamera(50, 4 / 3, 1, 100_000)
  narrow.position.set(-side * 15, 2000, -side * 15 + 2500)
  narrow.lookAt(-side * 15, 0, -side * 15)
  const rows: (string | number)[][] = []
  for (const [label, camera] of [
    ['all 10,000 in view', wide],
    ['a corner in view', narrow],
  ] as const) {
    const times: number[] = []
    let drawn = 0
    for (let round = 0; round < options.rounds; round++) {
      const start = now()
      for (let f = 0; f < options.frames; f++) {
        // A tenth start a crossfade each frame's worth of instances, so fades are always running.
        const i = ((round * options.frames + f) * 97) % n
        crowd.play(i, f % 2 ? 'attack' : 'run', { crossfade: 0.3 })
        crowd.update(1 / 60, camera)
      }
      times.push((now() - start) / options.frames)
      // Listed when asked (the shader culls): outside the timing.
      drawn = crowd.inView
    }
    rows.push([label, String(drawn), fmt(median(times), 2)])
  }
  crowd.dispose()
  return {
    title: 'Crowd update, CPU: 10,000 Ogros in one MD2Crowd',
    note: `ms of ${CLOCK === 'cpu' ? 'CPU time' : 'wall time'} per MD2Crowd.update (the clock, the view's planes, the rows of the instances told something: a tenth of a frame's worth crossfade each frame), median of ${options.rounds} rounds × ${options.frames} frames; three's render call not included.`,
    head: ['camera', 'instances in view', 'ms per frame'],
    rows,
    footer: [`Goal: under 2 ms for 10,000 instances → ${Number(rows[0]![2]) < 2 ? 'met' : 'MISSED'} (${rows[0]![2]} ms with all in view).`],
  }
}

/**
 * `MD2Crowd.update` as the crowd grows: 1,000 to 1,000,000 Ogros, every one running and in view, with
 * no instance told anything that frame, with 1,000 of them starting another animation (a crossfade)
 * that frame, and armed (a synced crowd of their weapon.md2 following them). What the crowd's JavaScript
 * costs a frame at each size.
 */
export function runCrowdScaleBench(options: { sizes: readonly number[]; frames: number }): Table {
  const model = parseMD2(readArrayBuffer(OGRO), { name: 'tris.MD2' })
  const weaponModel = parseMD2(readArrayBuffer(OGRO_WEAPON), { name: 'weapon.md2' })
  const rows: (string | number)[][] = []
  const position = new Vector3()
  for (const n of options.sizes) {
    const crowd = new MD2Crowd(model, { limit: n })
    const side = Math.ceil(Math.sqrt(n))
    for (let i = 0; i < n; i++) {
      crowd.setTransform(i, { position: position.set((i % side) * 60 - side * 30, 0, Math.floor(i / side) * 60 - side * 30), rotation: i })
      crowd.play(i, i % 3 ? 'run' : 'stand')
    }
    // Above the middle, seeing every instance.
    const camera = new PerspectiveCamera(90, 4 / 3, 1, side * 200)
    camera.position.set(0, side * 40, 1)
    camera.lookAt(0, 0, 0)
    const cells: (string | number)[] = [n.toLocaleString('en-US')]
    for (const changes of [0, 1000]) {
      for (let f = 0; f < 3; f++) crowd.update(1 / 60, camera)
      // Fewer frames where one takes long (the per-instance update at a million is a fifth of a second).
      const frames = Math.max(3, Math.min(options.frames, Math.round((options.frames * 10_000) / n)))
      const times: number[] = []
      const plays: number[] = []
      for (let f = 0; f < frames; f++) {
        const played = now()
        for (let c = 0; c < changes; c++) crowd.play((f * 7919 + c * 104_729) % n, c % 2 ? 'attack' : 'run', { crossfade: 0.3 })
        const start = now()
        crowd.update(1 / 60, camera)
        times.push(now() - start)
        plays.push(start - played)
      }
      if (changes === 0) cells.push(String(crowd.inView))
      cells.push(fmt(median(times), 3))
      if (changes > 0) cells.push(fmt(median(plays), 3))
    }
    // Armed: the weapons follow, synced; the body's update updates them.
    const weapons = new MD2Crowd(weaponModel, { limit: n })
    followCrowd(weapons, crowd)
    for (let f = 0; f < 3; f++) crowd.update(1 / 60, camera)
    const armed: number[] = []
    for (let f = 0; f < Math.max(3, Math.min(options.frames, Math.round((options.frames * 10_000) / n))); f++) {
      const start = now()
      crowd.update(1 / 60, camera)
      armed.push(now() - start)
    }
    cells.push(fmt(median(armed), 3))
    weapons.dispose()
    crowd.dispose()
    // Lit as Quake II lit them (a glowing shadelight): the same crowd, its light in its rows and uniforms.
    cells.push(fmt(timeDressed(model, n, camera, options.frames, { lighting: 'quake2', shadelight: [0.9, 0.7, 0.5], glow: true }), 3))
    // Dressed as the README's game dresses them: Quake II light, every one a blob shadow, every tenth a shell; with
    // no change, then with 1,000 changes that frame.
    const dressed = { lighting: 'quake2', shadow: 'blob', shadowFloor: -24 } as const
    cells.push(fmt(timeDressed(model, n, camera, options.frames, dressed, 0), 3))
    cells.push(fmt(timeDressed(model, n, camera, options.frames, dressed, 1000), 3))
    cells.push(fmt(timeTagged(n, camera, options.frames), 3))
    rows.push(cells)
  }
  const at = (n: number, column: number) => Number(rows.find((row) => row[0] === n.toLocaleString('en-US'))?.[column] ?? Number.NaN)
  const met = [100_000, 1_000_000].every(
    (n) => !(at(n, 2) > 1) && !(at(n, 3) > 1.5) && !(at(n, 6) > 1) && !(at(n, 7) > 1) && !(at(n, 8) > 1.5) && !(at(n, 9) > 1),
  )
  return {
    title: 'Crowd update by size, CPU: every Ogro running and in view',
    note: `ms of ${CLOCK === 'cpu' ? 'CPU time' : 'wall time'} per MD2Crowd.update, median of each frame; "1,000 changes": 1,000 instances start a crossfade into another animation before that update; the 1,000 \`play\` calls themselves (the game's side) timed apart; "armed": a crowd of their weapon.md2 follows them, synced (followCrowd), updated by their update; "Quake II light": a crowd of them lit so (\`lighting: "quake2"\`, a glowing shadelight); "dressed": lit so, every one a blob shadow, every tenth a shell, as the README's game dresses them; "heads on a tag": as many UFO:AI soldiers walking, each wearing head01.md2 on tag_head (a follower crowd, unsynced: its shader places each head on the tag for its body's pose), body and heads.`,
    head: [
      'instances',
      'in view',
      'ms per update',
      'ms, 1,000 changes',
      'ms, the 1,000 play calls',
      'ms, armed',
      'ms, Quake II light',
      'ms, dressed',
      'ms, dressed, 1,000 changes',
      'ms, heads on a tag',
    ],
    rows,
    footer: [
      `Goal: ≤ 1 ms at 100,000 and 1,000,000 (plain, Quake II lit, dressed, heads on a tag), ≤ 1.5 ms with 1,000 changes → ${met ? 'met' : 'MISSED'}.`,
    ],
  }
}

/**
 * The median ms of `MD2Crowd.update` for `n` UFO:AI soldiers walking in a grid, each wearing a head on `tag_head`
 * (a follower crowd, unsynced): the bodies' update, which updates the heads.
 */
function timeTagged(n: number, camera: PerspectiveCamera, frames: number): number {
  const body = parseMD2(readArrayBuffer(SOLDIER), { name: 'body.md2' })
  const crowd = new MD2Crowd(body, { limit: n })
  crowd.tags = parseMD2Tags(readArrayBuffer(SOLDIER_TAGS), { name: 'body.tag' })
  const heads = new MD2Crowd(parseMD2(readArrayBuffer(SOLDIER_HEAD), { name: 'head01.md2' }), { limit: n })
  followCrowd(heads, crowd, { tag: 'tag_head', sync: false })
  const side = Math.ceil(Math.sqrt(n))
  const position = new Vector3()
  // Ogro-sized spacing (the soldier is about as tall), walking through a stretch of his frames.
  for (let i = 0; i < n; i++) {
    crowd.setTransform(i, { position: position.set((i % side) * 60 - side * 30, 0, Math.floor(i / side) * 60 - side * 30), rotation: i })
    crowd.play(i, { start: 120, end: 140, fps: 10 })
  }
  const times: number[] = []
  const timed = Math.max(5, Math.min(frames, Math.round((frames * 10_000) / n)))
  for (let f = -5; f < timed; f++) {
    const start = now()
    crowd.update(1 / 60, camera)
    if (f >= 0) times.push(now() - start)
  }
  if (heads.drawnFrom !== 'stored') throw new Error(`crowd bench: the heads were drawn from ${heads.drawnFrom} rows`)
  heads.dispose()
  crowd.dispose()
  return median(times)
}

/**
 * The median ms of `MD2Crowd.update` for `n` running Ogros in a grid made with `options` (every tenth a shell when
 * the options give shadows), `changes` of them starting a crossfade before each update.
 */
function timeDressed(
  model: ReturnType<typeof parseMD2>,
  n: number,
  camera: PerspectiveCamera,
  frames: number,
  options: Omit<ConstructorParameters<typeof MD2Crowd>[1], 'limit'>,
  changes = 0,
): number {
  const crowd = new MD2Crowd(model, { ...options, limit: n })
  const side = Math.ceil(Math.sqrt(n))
  const position = new Vector3()
  for (let i = 0; i < n; i++) {
    crowd.setTransform(i, { position: position.set((i % side) * 60 - side * 30, 0, Math.floor(i / side) * 60 - side * 30), rotation: i })
    crowd.play(i, i % 3 ? 'run' : 'stand')
    if (options.shadow && i % 10 === 0) crowd.setShell(i, 'red')
  }
  const times: number[] = []
  const timed = Math.max(5, Math.min(frames, Math.round((frames * 10_000) / n)))
  // The first frames warm the same path up, untimed.
  for (let f = -5; f < timed; f++) {
    for (let c = 0; c < changes; c++) crowd.play(((f + 5) * 7919 + c * 104_729) % n, c % 2 ? 'attack' : 'run', { crossfade: 0.3 })
    const start = now()
    crowd.update(1 / 60, camera)
    if (f >= 0) times.push(now() - start)
  }
  crowd.dispose()
  return median(times)
}

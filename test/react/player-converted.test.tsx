/**
 * A character converted with `convert --player` is a Quake II player the library plays as one: served as a
 * `players/hero/` folder, `<MD2Player path skin>` loads its body and skin, and `usePlayerAnimation()` runs the
 * game's rules on it (run, attack over run, back to run) through the engine's frame numbers.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRef, useEffect } from 'react'
import type { BufferGeometry, DataTexture, Group, MeshLambertMaterial } from 'three'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { PlayerAnimationController } from '../../src/core/animation/PlayerAnimationController'
import { MD2Player } from '../../src/react/MD2Player'
import { usePlayerAnimation } from '../../src/react/usePlayerAnimation'
import { runOnDisk as run } from '../support/cli'
import { forgetPlayerLoads, meshOf, weaponOf } from '../support/players'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'
import { drawnFrame } from '../support/skinnedReference'
import { MIXAMO_CLIP } from '../../stories/support/character'
import { buildRig, exportRig } from '../../stories/support/rig'

let dir: string
const files: Record<string, Uint8Array> = {}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-player-react-'))
  const downloads = [
    ['idle', 'Idle Breath'],
    ['run', 'Walk'],
    ['shoot', 'Wave'],
  ] as const
  for (const [file, clipName] of downloads) {
    const { scene, clips } = buildRig()
    const clip = clips.find((c) => c.name === clipName)!.clone()
    clip.name = MIXAMO_CLIP
    writeFileSync(join(dir, `${file}.glb`), await exportRig(scene, [clip]))
  }
  const folder = join(dir, 'players', 'hero')
  mkdirSync(folder, { recursive: true })
  const result = await run([
    'convert',
    ...downloads.map(([file]) => join(dir, `${file}.glb`)),
    join(folder, 'tris.md2'),
    '--player',
    '--weapon',
    'club',
    '--scale',
    '32',
  ])
  expect(result.code, result.stderr).toBe(0)
  for (const name of ['tris.md2', 'hero.pcx', 'hero_i.pcx', 'weapon.md2', 'weapon.pcx'])
    files[`/p/hero/${name}`] = new Uint8Array(readFileSync(join(folder, name)))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(forgetPlayerLoads)

const positions = (group: Group) => Float32Array.from((meshOf(group).geometry as BufferGeometry).getAttribute('position').array)

it('<MD2Player> plays a converted player and its weapon through usePlayerAnimation(): run, attack over run, back to run', async () => {
  serveAssets(files)
  const model = parseMD2(files['/p/hero/tris.md2']!)
  const weaponModel = parseMD2(files['/p/hero/weapon.md2']!)
  const body = createRef<Group>()
  let player: PlayerAnimationController | undefined
  function Hero() {
    const controller = usePlayerAnimation()
    useEffect(() => {
      player = controller
    })
    return (
      <MD2Player
        ref={body}
        path={`${HOST}/p/hero/`}
        files={['tris.md2', 'hero.pcx', 'hero_i.pcx', 'weapon.md2', 'weapon.pcx']}
        skin="hero"
        weapon="weapon"
        controller={controller}
      />
    )
  }
  const r = await mount(<Hero />)
  await vi.waitFor(() => expect(meshOf(body.current!)).toBeDefined())
  await vi.waitFor(() =>
    expect(((meshOf(body.current!).material as MeshLambertMaterial).map as DataTexture | null)?.name).toContain('hero.pcx'),
  )
  player!.input.moving = true
  await r.advanceFrames(1, 0.1)
  expect(player!.state.frame).toBe(40)
  // The body drawn is the model's run frame: the walk clip, resampled onto the engine's table; the weapon its own,
  // in step (its skin its own too).
  expect(Math.max(...positions(body.current!).map((v, i) => Math.abs(v - drawnFrame(model, 40)[i]!)))).toBeLessThan(1e-4)
  await vi.waitFor(() => expect(weaponOf(body.current!)).toBeDefined())
  await r.advanceFrames(1, 0)
  const weapon = weaponOf(body.current!)!
  expect(Math.max(...positions(weapon).map((v, i) => Math.abs(v - drawnFrame(weaponModel, 40)[i]!)))).toBeLessThan(1e-4)
  await vi.waitFor(() => expect(((meshOf(weapon).material as MeshLambertMaterial).map as DataTexture | null)?.name).toContain('weapon.pcx'))
  player!.input.firing = true
  await r.advanceFrames(1, 0.1)
  expect(player!.state.frame).toBe(46)
  await r.advanceFrames(7, 0.1)
  expect(player!.state.frame).toBe(53)
  await r.advanceFrames(1, 0.1)
  expect(player!.state.frame).toBe(40)
})

/**
 * MD2Character and MD2CharacterComplex in Node: bad configs and options are typed errors, a missing model or
 * skin is reported (never a silent hang), a frame allocates nothing, and the complex one's movement model moves
 * the root as three.js's own MD2CharacterComplex does for the same controls. (Drawing, skins and weapons on
 * screen are checked in Chromium: test/browser/md2-character.test.ts.)
 */
import { MD2CharacterComplex as ThreeMD2CharacterComplex } from 'three/examples/jsm/misc/MD2CharacterComplex.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isMD2Error, type MD2Error } from '../../src/core/MD2Error'
import { createPose } from '../../src/core/animation/pose'
import { getMissingSkinTexture } from '../../src/three/loaders/MD2SkinLoader'
import { createMD2Geometry, writeMD2Pose } from '../../src/three/mesh/MD2Geometry'
import { bytesPerCall, settled } from '../support/alloc'
import { HOST, serveAssets } from '../support/serve'
import { MD2Character } from '../../src/three/character/MD2Character'
import { MD2CharacterComplex } from '../../src/three/character/MD2CharacterComplex'
import { expectMD2Error } from '../support/errors'

afterEach(() => vi.restoreAllMocks())

/** Ratamahatta with Quake II's own PCX skins, from the fake server of assets/. */
const RATAMAHATTA = {
  baseUrl: `${HOST}/a/quake2/ratamahatta/`,
  body: 'tris.md2',
  skins: ['../Ratamahatta.pcx', '../ctf_b.pcx'],
  weapons: [['weapon.MD2', '../weapon.pcx']] as [string, string][],
}

function load<T extends MD2Character | MD2CharacterComplex>(character: T, config = RATAMAHATTA): Promise<T> {
  return new Promise((resolve, reject) => {
    character.onLoadComplete = () => resolve(character)
    character.onLoadError = reject
    character.loadParts(config)
  })
}

const CONFIG = { baseUrl: 'models/', body: 'tris.md2', skins: ['skin.png'], weapons: [['weapon.md2', 'weapon.png']] as [string, string][] }

describe('MD2Character options and config', () => {
  it('rejects an unknown handedness with an MD2Error naming it', () => {
    expectMD2Error(() => new MD2Character({ handedness: 'left' as never }), 'BAD_ARGUMENT', { text: /handedness "left"/ })
  })

  it("rejects a config that is not three's shape, naming the field, before loading anything", () => {
    const character = new MD2Character()
    expectMD2Error(() => character.loadParts(undefined as never), 'BAD_ARGUMENT', { text: /not an object/ })
    expectMD2Error(() => character.loadParts({ ...CONFIG, body: 3 as never }), 'BAD_ARGUMENT', { text: /config\.body is 3/ })
    expectMD2Error(() => character.loadParts({ ...CONFIG, skins: 'a.png' as never }), 'BAD_ARGUMENT', { text: /config\.skins/ })
    expectMD2Error(() => character.loadParts({ ...CONFIG, weapons: [['w.md2']] as never }), 'BAD_ARGUMENT', { text: /\[model, skin\]/ })
    expect(character.loadCounter).toBe(0)
  })
})

describe('loading', () => {
  it('a model that cannot be loaded calls onLoadError with an MD2Error naming its URL, and not onLoadComplete', async () => {
    serveAssets()
    const character = new MD2Character()
    const complete = vi.fn()
    const error = await new Promise<MD2Error>((resolve) => {
      character.onLoadComplete = complete
      character.onLoadError = resolve
      character.loadParts({ ...RATAMAHATTA, body: 'missing.md2' })
    })
    expect(isMD2Error(error) && error.code).toBe('LOAD_FAILED')
    expect(error.message).toContain('missing.md2')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(complete).not.toHaveBeenCalled()
  })

  it('a skin that cannot be loaded warns and shows the checkerboard; onLoadComplete is still called', async () => {
    serveAssets()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const character = await load(new MD2Character(), { ...RATAMAHATTA, skins: ['../Ratamahatta.pcx', '../nothing.pcx'] })
    expect(warn.mock.calls.some(([text]) => String(text).includes('nothing.pcx'))).toBe(true)
    const missing = getMissingSkinTexture()
    expect(character.skinsBody.map((skin) => skin.source)).toEqual([expect.anything(), missing.source])
    expect((character.skinsBody[0]!.image as { width: number }).width).toBe(256)
  })

  it("the clips are three's, and the weapon shows the body's pose (its own frames, the same frame numbers)", async () => {
    serveAssets()
    const character = await load(new MD2Character())
    expect(character.meshBody!.geometry.animations.map((a) => a.name)).toContain('pain')
    character.setAnimation('attack')
    character.setWeapon(0)
    character.update(0.23)
    const pose = character.controller!.pose
    expect([pose.from, pose.to]).toEqual([48, 49])
    const weapon = character.meshWeapon!
    expect(weapon.visible).toBe(true)
    // The weapon's vertices are its own frames 48 → 49, blended as the body's: written from the body's pose.
    const reference = createMD2Geometry(weapon.model)
    writeMD2Pose(reference, pose)
    expect(Array.from(weapon.geometry.getAttribute('position').array)).toEqual(Array.from(reference.getAttribute('position').array))
    writeMD2Pose(reference, createPose(0))
    expect(Array.from(weapon.geometry.getAttribute('position').array)).not.toEqual(Array.from(reference.getAttribute('position').array))
  })
})

describe('a frame allocates nothing', () => {
  it('MD2Character.update with a weapon, and MD2CharacterComplex.update moving and crossfading', async () => {
    serveAssets()
    const simple = await load(new MD2Character())
    simple.setAnimation('run')
    simple.setWeapon(0)
    const frame = () => simple.update(1 / 60)
    expect(await settled(() => bytesPerCall(frame, 50), frame)).toBeLessThan(1)

    const complex = await load(new MD2CharacterComplex())
    complex.animations = { move: 'run', idle: 'stand' }
    complex.setWeapon(0)
    const controls = { moveForward: false }
    complex.controls = controls
    let n = 0
    // Starting and stopping every 20 frames: each change crossfades.
    const step = () => {
      controls.moveForward = ++n % 40 < 20
      complex.update(1 / 60)
    }
    expect(await settled(() => bytesPerCall(step, 50), step)).toBeLessThan(1)
    expect(complex.activeAnimation === 'run' || complex.activeAnimation === 'stand').toBe(true)
  })
})

describe('MD2CharacterComplex movement model', () => {
  it("moves and turns the root as three.js's MD2CharacterComplex does for the same controls and times", () => {
    const ours = new MD2CharacterComplex()
    const three = new ThreeMD2CharacterComplex()
    const steps: [Record<string, boolean>, number][] = [
      [{ moveForward: true }, 30],
      [{ moveForward: true, moveLeft: true }, 20],
      [{}, 25],
      [{ moveBackward: true }, 30],
      [{ moveRight: true, crouch: true }, 15],
      [{}, 40],
    ]
    for (const character of [ours, three] as { controls: unknown; update(delta: number): void }[]) {
      for (const [controls, frames] of steps) {
        character.controls = controls
        for (let i = 0; i < frames; i++) character.update(1 / 60 + (i % 3) * 0.004)
      }
    }
    const where = (c: { root: { position: { x: number; z: number }; rotation: { y: number } }; speed: number }) => [
      c.root.position.x,
      c.root.position.z,
      c.root.rotation.y,
      c.speed,
    ]
    const theirs = where(three as never)
    where(ours).forEach((value, i) => expect(value).toBeCloseTo(theirs[i]!, 9))
    // Not a pass by standing still.
    expect(Math.hypot(theirs[0]!, theirs[1]!)).toBeGreaterThan(50)
  })
})

/**
 * MD2Character and MD2CharacterComplex in Node: bad configs and options are typed errors, and the complex
 * one's movement model moves the root as three.js's own MD2CharacterComplex does for the same controls.
 * (Loading, drawing, skins and weapons are checked in Chromium: test/browser/md2-character.test.ts.)
 */
import { MD2CharacterComplex as ThreeMD2CharacterComplex } from 'three/examples/jsm/misc/MD2CharacterComplex.js'
import { describe, expect, it } from 'vitest'
import { MD2Character } from '../../src/three/character/MD2Character'
import { MD2CharacterComplex } from '../../src/three/character/MD2CharacterComplex'
import { expectMD2Error } from '../support/errors'

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

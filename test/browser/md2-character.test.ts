/**
 * Code written against three.js's MD2Character and MD2CharacterComplex, run once on three's own classes
 * (three/addons/misc) and once on the library's, with the same checks: loading, the clip list, drawing and
 * animating, skins, weapons, wireframe, freezing, the movement model and shared parts. Real models, real
 * PNG skins, real WebGL in Chromium. The library's also loads Quake II's PCX skins as they ship.
 */
import { MD2Character as ThreeMD2Character } from 'three/examples/jsm/misc/MD2Character.js'
import { MD2CharacterComplex as ThreeMD2CharacterComplex } from 'three/examples/jsm/misc/MD2CharacterComplex.js'
import { afterEach, describe, expect, test } from 'vitest'
import { MD2Character, MD2CharacterComplex } from '../../src/three/index'
import {
  CharacterView,
  changedPixels,
  clipNames,
  drawnPixels,
  loadCharacter,
  RATAMAHATTA_CONFIG,
  type CharacterLike,
  type ComplexLike,
} from './support/characterChecks'

const implementations = [
  { name: "three.js's classes", Character: ThreeMD2Character, Complex: ThreeMD2CharacterComplex },
  { name: "the library's classes", Character: MD2Character, Complex: MD2CharacterComplex },
] as unknown as { name: string; Character: new () => CharacterLike; Complex: new () => ComplexLike }[]

const views: CharacterView[] = []
afterEach(() => {
  for (const view of views.splice(0)) view.dispose()
})
function view(): CharacterView {
  const made = new CharacterView()
  views.push(made)
  return made
}

describe.each(implementations)('$name', ({ Character, Complex }) => {
  test('MD2Character: loads, lists clips by name, draws, animates, and its skin, weapon, wireframe and rate change the picture', async () => {
    const character = new Character()
    await loadCharacter(character, RATAMAHATTA_CONFIG)
    const names = clipNames(character)
    expect(names).toHaveLength(16)
    expect(names).toEqual(expect.arrayContaining(['stand', 'run', 'attack', 'pain', 'death', 'crwalk']))

    const v = view()
    v.scene.add(character.root)
    character.setAnimation('run')
    character.setWeapon(0)
    character.update(0.01)
    const first = v.draw()
    expect(drawnPixels(first)).toBeGreaterThan(800)

    character.update(0.25)
    const moved = v.draw()
    expect(changedPixels(first, moved)).toBeGreaterThan(100)

    character.setSkin(1)
    const reskinned = v.draw()
    expect(changedPixels(moved, reskinned)).toBeGreaterThan(200)

    character.setWeapon(1)
    const rearmed = v.draw()
    expect(changedPixels(reskinned, rearmed)).toBeGreaterThan(30)

    character.setWireframe(true)
    const wire = v.draw()
    expect(changedPixels(rearmed, wire)).toBeGreaterThan(200)
    character.setWireframe(false)

    character.setPlaybackRate!(0)
    // Three's mixer poses a newly shown weapon on its next update, even at rate 0: one update first.
    character.update(0.3)
    const before = v.draw()
    character.update(0.3)
    character.update(0.3)
    expect(changedPixels(before, v.draw())).toBe(0)
    character.setPlaybackRate!(1)
    character.update(0.3)
    expect(changedPixels(before, v.draw())).toBeGreaterThan(100)
  })

  test('MD2CharacterComplex: moveForward moves the root and plays move; shareParts draws a second character', async () => {
    const config = {
      ...RATAMAHATTA_CONFIG,
      animations: { move: 'run', idle: 'stand', jump: 'jump', attack: 'attack', crouchMove: 'crwalk', crouchIdle: 'crstnd' },
      walkSpeed: 300,
      crouchSpeed: 150,
    }
    const base = new Complex()
    await loadCharacter(base, config)
    expect(clipNames(base)).toContain('run')

    const character = new Complex()
    character.shareParts(base)
    character.enableShadows(true)
    character.setWeapon(0)
    character.setSkin(1)
    const controls = { moveForward: false, moveBackward: false, moveLeft: false, moveRight: false }
    character.controls = controls
    character.update(0.016)
    expect(character.activeAnimation).toBe('stand')

    const v = view()
    v.scene.add(character.root)
    expect(drawnPixels(v.draw())).toBeGreaterThan(800)

    const z = character.root.position.z
    controls.moveForward = true
    for (let i = 0; i < 10; i++) character.update(0.02)
    expect(character.activeAnimation).toBe('run')
    expect(character.root.position.z).toBeGreaterThan(z + 5)
    controls.moveForward = false
    controls.moveLeft = true
    for (let i = 0; i < 10; i++) character.update(0.02)
    expect(character.root.rotation.y).toBeGreaterThan(0.3)
    expect(drawnPixels(v.draw())).toBeGreaterThan(200)
  })
})

describe("the library's MD2Character", () => {
  test("loads Quake II's PCX skins as they ship, and draws them", async () => {
    const character = new MD2Character()
    await loadCharacter(character, {
      baseUrl: '/assets/quake2/ratamahatta/',
      body: 'tris.md2',
      skins: ['../Ratamahatta.pcx', '../ctf_b.pcx'],
      weapons: [['weapon.MD2', '../weapon.pcx']],
    })
    expect(character.skinsBody.map((skin) => [skin.name, (skin.image as { width: number }).width])).toEqual([
      ['../Ratamahatta.pcx', 256],
      ['../ctf_b.pcx', 256],
    ])
    const v = view()
    v.scene.add(character.root)
    character.setAnimation('stand')
    character.setWeapon(0)
    const first = v.draw()
    expect(drawnPixels(first)).toBeGreaterThan(800)
    character.setSkin(1)
    expect(changedPixels(first, v.draw())).toBeGreaterThan(200)
  })

  test("with handedness 'three' draws three's mirror image, the library's default the model as Quake II does", async () => {
    const pictures: Uint8Array[] = []
    for (const handedness of ['library', 'three'] as const) {
      const character = new MD2Character({ handedness })
      await loadCharacter(character, { ...RATAMAHATTA_CONFIG, weapons: [RATAMAHATTA_CONFIG.weapons[0]] })
      character.setWeapon(0)
      const v = view()
      v.scene.add(character.root)
      pictures.push(v.draw())
    }
    const [library, three] = pictures as [Uint8Array, Uint8Array]
    // Mirrored about x = 0 (the view's centre column), three's picture is the library's.
    const size = Math.sqrt(library.length / 4)
    const mirrored = new Uint8Array(library.length)
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++)
        mirrored.set(library.subarray((y * size + x) * 4, (y * size + x) * 4 + 4), (y * size + (size - 1 - x)) * 4)
    expect(changedPixels(library, three)).toBeGreaterThan(100)
    expect(changedPixels(mirrored, three)).toBeLessThan(changedPixels(library, three) / 4)
  })
})

describe("the library's classes called carelessly, on screen", () => {
  /** Pixels of the missing-skin checkerboard's magenta in a picture. */
  const magenta = (pixels: Uint8Array) => countPixels(pixels, (r, g, b) => r > 90 && b > 90 && g < 40)

  test.each([
    { name: 'MD2Character', make: () => new MD2Character() },
    { name: 'MD2CharacterComplex', make: () => new MD2CharacterComplex() },
  ])("$name: setSkin(99) draws the missing-skin checkerboard, where three's sets no texture", async ({ make }) => {
    const ours = make()
    const three = new ThreeMD2Character()
    for (const character of [ours, three] as unknown as CharacterLike[]) {
      await loadCharacter(character, { ...RATAMAHATTA_CONFIG, weapons: [] })
    }
    const pictures: Record<string, Uint8Array> = {}
    for (const [who, character] of [
      ['ours', ours],
      ['three', three],
    ] as [string, CharacterLike][]) {
      const v = view()
      v.scene.add(character.root)
      v.draw()
      character.setSkin(99)
      pictures[who] = v.draw()
    }
    // Three's sets no texture (its material is not rebuilt, so the old skin may stay on screen): no checkerboard.
    expect(magenta(pictures.ours!)).toBeGreaterThan(300)
    expect(magenta(pictures.three!)).toBe(0)
    expect(drawnPixels(pictures.three!)).toBeGreaterThan(800)
  })

  test('dispose() takes renderer.info.memory back to its count before the load; a sharer frees only its own geometry', async () => {
    const v = view()
    v.draw()
    const before = { ...v.renderer.info.memory }
    const original = new MD2CharacterComplex()
    await loadCharacter(original as unknown as CharacterLike, RATAMAHATTA_CONFIG)
    original.setWeapon(0)
    const copy = new MD2CharacterComplex()
    copy.shareParts(original)
    copy.setWeapon(1)
    copy.root.position.x = 20
    v.scene.add(original.root, copy.root)
    v.draw()
    const loaded = { ...v.renderer.info.memory }
    // Two bodies and two weapons drawn; the skins they show: the body's and two weapons'.
    expect(loaded.geometries - before.geometries).toBe(4)
    expect(loaded.textures - before.textures).toBe(3)

    copy.dispose()
    v.draw()
    // Its geometry is freed; the skins are the original's, which only it frees.
    expect(v.renderer.info.memory.geometries - before.geometries).toBe(2)
    expect(v.renderer.info.memory.textures - before.textures).toBe(3)
    expect(drawnPixels(v.draw())).toBeGreaterThan(800)
    original.dispose()
    v.draw()
    expect({ ...v.renderer.info.memory }).toEqual(before)
    expect(drawnPixels(v.draw())).toBe(0)
  })
})

function countPixels(pixels: Uint8Array, accept: (r: number, g: number, b: number) => boolean): number {
  let count = 0
  for (let i = 0; i < pixels.length; i += 4) if (accept(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!)) count++
  return count
}

/**
 * MD2Character and MD2CharacterComplex called carelessly (issue 43): arguments that name nothing are ignored
 * or shown as missing with one warning, never a TypeError; a stalled server ends in onLoadError after the
 * load timeout; loadParts again replaces the parts; dispose() frees what the character made and nothing it
 * shares. Real models and PCX skins from assets/ (a fake fetch), and a real HTTP server that never answers.
 * (The picture of the checkerboard and the renderer's memory after dispose: test/browser/md2-character.test.ts.)
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Texture } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isMD2Error, type MD2Error } from '../../src/core/MD2Error'
import { getLoadTimeout } from '../../src/react/loading/loadTimeout'
import { getMissingSkinTexture } from '../../src/three/loaders/MD2SkinLoader'
import { MD2Character } from '../../src/three/character/MD2Character'
import { MD2CharacterComplex } from '../../src/three/character/MD2CharacterComplex'
import type { MD2CharacterConfig } from '../../src/three/character/MD2CharacterParts'
import { expectMD2Error } from '../support/errors'
import { HOST, serveAssets } from '../support/serve'

afterEach(() => vi.restoreAllMocks())

const RATAMAHATTA: MD2CharacterConfig = {
  baseUrl: `${HOST}/a/quake2/ratamahatta/`,
  body: 'tris.md2',
  skins: ['../Ratamahatta.pcx', '../ctf_b.pcx'],
  weapons: [
    ['weapon.MD2', '../weapon.pcx'],
    ['../pknight/w_bfg.md2', '../../pknight/w_bfg.pcx'],
  ],
}

type Character = MD2Character | MD2CharacterComplex
const CLASSES = [
  { name: 'MD2Character', make: () => new MD2Character() },
  { name: 'MD2CharacterComplex', make: () => new MD2CharacterComplex() },
] as const

function load<T extends Character>(character: T, config = RATAMAHATTA): Promise<T> {
  return new Promise((resolve, reject) => {
    character.onLoadComplete = () => resolve(character)
    character.onLoadError = reject
    character.loadParts(config)
  })
}

function warnings(): { texts: () => string[] } {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  return { texts: () => warn.mock.calls.map(([text]) => String(text)) }
}

/** Every vertex position of the character's parts. */
function positions(character: Character): number[] {
  return character.meshes.flatMap((mesh) => Array.from(mesh.geometry.getAttribute('position').array as Float32Array))
}

/** A playing character whose clip is `run`, the weapon shown. */
function playRun(character: Character): void {
  character.setAnimation('run')
  character.setWeapon(0)
  character.update(0.13)
}

describe.each(CLASSES)('$name called carelessly after a load', ({ make }) => {
  it('setAnimation with no name, a number or an unknown name is ignored with one warning; the animation goes on', async () => {
    serveAssets()
    const character = await load(make())
    playRun(character)
    const frame = character.controller!.frame
    const warned = warnings()
    for (const clip of [undefined, null, 42, 'nope', 'nope', {}]) expect(() => character.setAnimation(clip as never)).not.toThrow()
    expect(character.controller!.animation.name).toBe('run')
    expect(character.controller!.frame).toBe(frame)
    const about = warned.texts().filter((text) => text.includes('"nope"'))
    expect(about).toHaveLength(1)
    expect(about[0]).toMatch(/no such animation, ignored.*Available: stand, run/)
    character.update(0.1)
    expect(character.controller!.frame).toBeGreaterThan(frame)
  })

  it('setSkin past the skins shows the missing-skin checkerboard (never no texture), warned once; a real index shows it again', async () => {
    serveAssets()
    const character = await load(make())
    const warned = warnings()
    for (const index of [99, -1, Number.NaN, 99]) {
      expect(() => character.setSkin(index)).not.toThrow()
      expect(character.meshBody!.material.map).toBe(getMissingSkinTexture())
    }
    expect(warned.texts().filter((text) => text.includes('setSkin(99)'))).toHaveLength(1)
    expect(warned.texts().some((text) => text.includes('there are 2 skins'))).toBe(true)
    character.setSkin(1)
    expect(character.meshBody!.material.map).toBe(character.skinsBody[1])
  })

  it('setWeapon past the weapons hides every weapon as three does, warned once, and a real index shows one again', async () => {
    serveAssets()
    const character = await load(make())
    character.setWeapon(1)
    const warned = warnings()
    for (const index of [-5, 2, Number.NaN, 0.5]) {
      expect(() => character.setWeapon(index)).not.toThrow()
      expect(character.weapons.map((weapon) => weapon.visible)).toEqual([false, false])
    }
    expect(warned.texts().filter((text) => text.includes('setWeapon(-5)'))).toHaveLength(1)
    character.setWeapon(0)
    expect(character.weapons.map((weapon) => weapon.visible)).toEqual([true, false])
  })

  it('setPlaybackRate and update with NaN, negative or infinite numbers are ignored: no NaN in a buffer or the root', async () => {
    serveAssets()
    const character = await load(make())
    playRun(character)
    const warned = warnings()
    const before = positions(character)
    for (const bad of [Number.NaN, -1, Infinity, -Infinity, undefined]) {
      character.setPlaybackRate(bad as number)
      character.update(bad as number)
    }
    expect(positions(character)).toEqual(before)
    expect(warned.texts().some((text) => /setPlaybackRate\(NaN\): not a finite number ≥ 0, ignored/.test(text))).toBe(true)
    expect(warned.texts().some((text) => /update\(-1\): not a finite number ≥ 0, ignored/.test(text))).toBe(true)
    // The rate was kept: time moves on as before.
    character.update(0.2)
    const after = positions(character)
    expect(after).not.toEqual(before)
    expect(after.every(Number.isFinite)).toBe(true)
    expect(character.root.position.toArray().every(Number.isFinite)).toBe(true)
  })

  it('before a load every call is ignored as three does, without a warning or an error', () => {
    const character = make()
    const warned = warnings()
    character.setAnimation('run')
    character.setAnimation(undefined as never)
    character.setSkin(5)
    character.setWeapon(-5)
    character.setWireframe(true)
    character.setPlaybackRate(2)
    character.update(0.1)
    character.dispose()
    expect(warned.texts()).toEqual([])
    expect(character.root.children).toHaveLength(0)
  })
})

describe('MD2CharacterComplex.shareParts called carelessly', () => {
  it('null, undefined, a character not loaded yet, or itself: ignored with a warning naming it, no parts made', async () => {
    serveAssets()
    const loaded = await load(new MD2CharacterComplex())
    const character = new MD2CharacterComplex()
    const warned = warnings()
    for (const original of [null, undefined, new MD2CharacterComplex(), character, {}]) {
      expect(() => character.shareParts(original as never)).not.toThrow()
      expect(character.meshes).toHaveLength(0)
    }
    expect(warned.texts().some((text) => text.includes('the original is null, not a loaded MD2CharacterComplex'))).toBe(true)
    expect(warned.texts().some((text) => text.includes('share in its onLoadComplete'))).toBe(true)
    expect(warned.texts().some((text) => text.includes('the character itself'))).toBe(true)
    // Shared twice: the second replaces the first's parts.
    character.shareParts(loaded)
    character.shareParts(loaded)
    expect(character.root.children).toHaveLength(3)
    expect(character.meshes).toHaveLength(3)
  })
})

describe('the load timeout', () => {
  let server: Server | undefined
  const sockets = new Set<Socket>()
  afterEach(async () => {
    for (const socket of sockets) socket.destroy()
    if (server) await new Promise((resolve) => server!.close(resolve))
    server = undefined
  })

  /** A server that accepts every request and never answers; resolves its origin and what it was asked. */
  async function stalledServer(): Promise<{ origin: string; asked: string[]; closed: () => number }> {
    const asked: string[] = []
    let closed = 0
    server = createServer((request) => {
      asked.push(request.url ?? '')
      request.socket.on('close', () => closed++)
    })
    server.on('connection', (socket) => sockets.add(socket))
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    return { origin: `http://127.0.0.1:${port}`, asked, closed: () => closed }
  }

  it.each(CLASSES)(
    '$name: a server that never answers ends in onLoadError within loadTimeout, naming what did not come, and the requests are closed',
    async ({ make }) => {
      const { origin, asked, closed } = await stalledServer()
      const character = make()
      character.loadTimeout = 400
      const complete = vi.fn()
      const started = performance.now()
      const error = await new Promise<MD2Error>((resolve) => {
        character.onLoadComplete = complete
        character.onLoadError = resolve
        character.loadParts({ ...RATAMAHATTA, baseUrl: `${origin}/md2/` })
      })
      const took = performance.now() - started
      expect(isMD2Error(error) && error.code).toBe('LOAD_FAILED')
      expect(error.message).toMatch(/no answer within 400 ms \(loadTimeout\) for .*\/md2\/tris\.md2/)
      expect(error.message).toContain('/md2/skins/../weapon.pcx')
      expect(took).toBeGreaterThanOrEqual(390)
      expect(took).toBeLessThan(5000)
      expect(character.loadCounter).toBe(0)
      // Every request reached the server and was abandoned: the connections are closed by the client.
      expect(asked).toHaveLength(7)
      await vi.waitFor(() => expect(closed()).toBe(7), { timeout: 3000 })
      // Abandoned skins show the checkerboard, and nothing else is called later.
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(character.skinsBody.every((skin) => skin.source === getMissingSkinTexture().source)).toBe(true)
      expect(complete).not.toHaveBeenCalled()
    },
  )

  it("defaults to the React loaders' timeout; a value that is not one warns and keeps it", () => {
    expect(new MD2Character().loadTimeout).toBe(getLoadTimeout())
    expect(new MD2CharacterComplex({ loadTimeout: 1234 }).loadTimeout).toBe(1234)
    const warned = warnings()
    expect(new MD2Character({ loadTimeout: -1 }).loadTimeout).toBe(30_000)
    expect(warned.texts().some((text) => text.includes('-1 is not a timeout'))).toBe(true)
  })

  it('a loaded character stops its timer: no late onLoadError', async () => {
    serveAssets()
    const character = new MD2Character({ loadTimeout: 150 })
    const error = vi.fn()
    await new Promise<void>((resolve) => {
      character.onLoadComplete = resolve
      character.onLoadError = error
      character.loadParts(RATAMAHATTA)
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(error).not.toHaveBeenCalled()
  })
})

describe("config values that are not three's", () => {
  it('walkSpeed, crouchSpeed and animations of the wrong kind are BAD_ARGUMENT naming the field', () => {
    const character = new MD2CharacterComplex()
    expectMD2Error(() => character.loadParts({ ...RATAMAHATTA, walkSpeed: 'fast' as never }), 'BAD_ARGUMENT', {
      text: /config\.walkSpeed is "fast"/,
    })
    expectMD2Error(() => character.loadParts({ ...RATAMAHATTA, crouchSpeed: Number.NaN }), 'BAD_ARGUMENT', { text: /config\.crouchSpeed/ })
    expectMD2Error(() => character.loadParts({ ...RATAMAHATTA, animations: 'run' as never }), 'BAD_ARGUMENT', {
      text: /config\.animations/,
    })
    expect(character.loadCounter).toBe(0)
  })
})

/** Records the `dispose` events of textures, geometries and materials. */
function disposals(): {
  watch: (...things: { addEventListener: Texture['addEventListener'] }[]) => void
  count: (thing: object) => number
} {
  const counts = new Map<object, number>()
  return {
    watch: (...things) => {
      for (const thing of things) thing.addEventListener('dispose', () => counts.set(thing, (counts.get(thing) ?? 0) + 1))
    },
    count: (thing) => counts.get(thing) ?? 0,
  }
}

describe.each(CLASSES)('$name.loadParts again and dispose()', ({ make }) => {
  it('loadParts again while loading: the first load is abandoned (no callback, its requests aborted), one set of parts', async () => {
    // The first load's second weapon never comes: only the first load asks for it.
    const server = serveAssets({}, { path: '/a/quake2/pknight/w_bfg.md2', promise: new Promise(() => {}) })
    const character = make()
    const completes: number[] = []
    const errors = vi.fn()
    character.onLoadError = errors
    await new Promise<void>((resolve) => {
      let n = 0
      character.onLoadComplete = () => {
        completes.push(++n)
        resolve()
      }
      character.loadParts(RATAMAHATTA)
      character.loadParts({ ...RATAMAHATTA, weapons: [RATAMAHATTA.weapons[0]!] })
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(completes).toEqual([1])
    expect(errors).not.toHaveBeenCalled()
    expect(character.loadCounter).toBe(0)
    expect(character.root.children).toHaveLength(2)
    expect(character.weapons).toHaveLength(1)
    expect(server.aborted).toEqual(['/a/quake2/pknight/w_bfg.md2'])
  })

  it('loadParts again after a load replaces the parts: old geometry, materials and skins freed, the counter never below 0', async () => {
    serveAssets()
    const character = await load(make())
    const old = disposals()
    const oldMeshes = [...character.meshes]
    const oldSkins = [...character.skinsBody, ...character.skinsWeapon]
    for (const mesh of oldMeshes) old.watch(mesh.geometry, mesh.materialTexture, mesh.materialWireframe)
    old.watch(...oldSkins)
    await load(character)
    expect(character.loadCounter).toBe(0)
    expect(character.root.children).toHaveLength(3)
    expect(character.root.children.some((child) => oldMeshes.includes(child as never))).toBe(false)
    for (const mesh of oldMeshes) {
      expect([old.count(mesh.geometry), old.count(mesh.materialTexture), old.count(mesh.materialWireframe)]).toEqual([1, 1, 1])
    }
    expect(oldSkins.map((skin) => old.count(skin))).toEqual([1, 1, 1, 1])
  })

  it('dispose() frees geometry, both materials and the skins, empties root, ignores calls after, and may load again', async () => {
    serveAssets()
    const character = await load(make())
    playRun(character)
    character.setSkin(99)
    const events = disposals()
    const meshes = [...character.meshes]
    const skins = [...character.skinsBody, ...character.skinsWeapon]
    for (const mesh of meshes) events.watch(mesh.geometry, mesh.materialTexture, mesh.materialWireframe)
    events.watch(...skins, getMissingSkinTexture())
    character.dispose()
    for (const mesh of meshes)
      expect([events.count(mesh.geometry), events.count(mesh.materialTexture), events.count(mesh.materialWireframe)]).toEqual([1, 1, 1])
    expect(skins.map((skin) => events.count(skin))).toEqual([1, 1, 1, 1])
    // The checkerboard is shared by every missing skin: never freed by a character.
    expect(events.count(getMissingSkinTexture())).toBe(0)
    expect(character.root.children).toHaveLength(0)
    expect([character.meshBody, character.controller, character.meshes.length]).toEqual([null, null, 0])
    const warned = warnings()
    playRun(character)
    character.setSkin(0)
    character.dispose()
    expect(warned.texts()).toEqual([])
    await load(character)
    expect(character.root.children).toHaveLength(3)
  })
})

describe('dispose() and shared parts', () => {
  it("a character made with shareParts frees its own geometry and materials, never the original's skins", async () => {
    serveAssets()
    const original = await load(new MD2CharacterComplex())
    const copy = new MD2CharacterComplex()
    copy.shareParts(original)
    const events = disposals()
    const skins = [...original.skinsBody, ...original.skinsWeapon]
    events.watch(...skins, ...original.meshes.map((mesh) => mesh.geometry))
    const copyMeshes = [...copy.meshes]
    for (const mesh of copyMeshes) events.watch(mesh.geometry, mesh.materialTexture)
    copy.dispose()
    expect(copyMeshes.map((mesh) => [events.count(mesh.geometry), events.count(mesh.materialTexture)])).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
    ])
    expect(skins.map((skin) => events.count(skin))).toEqual([0, 0, 0, 0])
    expect(original.meshes.map((mesh) => events.count(mesh.geometry))).toEqual([0, 0, 0])
    expect(original.root.children).toHaveLength(3)
    // Loading its own parts afterwards: still never the original's skins.
    await load(copy)
    copy.dispose()
    expect(skins.map((skin) => events.count(skin))).toEqual([0, 0, 0, 0])
  })
})

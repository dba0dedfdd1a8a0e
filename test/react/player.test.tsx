import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRef } from 'react'
import type { BufferGeometry, DataTexture, Group, MeshLambertMaterial } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseMD2 } from '../../src/core/internal'
import type { MD2Error } from '../../src/core/MD2Error'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Player } from '../../src/react/MD2Player'
import { usePlayerIcon } from '../../src/react/loading/usePlayerIcon'
import { getMissingSkinTexture } from '../../src/three/loaders/MD2SkinLoader'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { forgetPlayerLoads, meshOf, weaponOf } from '../support/players'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'
import { Boundary } from '../support/boundary'

const OGRO = `${HOST}/a/quake2/ogro/`
const PKNIGHT = `${HOST}/a/quake2/pknight/`
const ogroFiles = readdirSync(join(ASSETS_DIR, 'quake2/ogro'))

afterEach(forgetPlayerLoads)

const positions = (group: Group) => (meshOf(group).geometry as BufferGeometry).getAttribute('position').array as Float32Array
const mapOf = (group: Group) => (meshOf(group).material as MeshLambertMaterial).map

describe('<MD2Player>', () => {
  it('loads the ogro folder as distributed: tris.MD2, a skin by name and w_railgun.MD2 with its own skin, in step', async () => {
    const server = serveAssets()
    const body = createRef<Group>()
    const alone = createRef<Group>()
    const railgun = parseMD2(readAsset('quake2/ogro/w_railgun.MD2'))
    const r = await mount(
      <>
        <MD2Player ref={body} path={OGRO} skin="igdosh" weapon="railgun" animation="run" />
        <MD2Model ref={alone} model={railgun} animation="run" />
      </>,
    )
    await vi.waitFor(() => expect(weaponOf(body.current!)).toBeDefined())
    const weapon = weaponOf(body.current!)!
    for (let i = 0; i < 4; i++) {
      await r.advanceFrames(1, 0.043)
      expect(positions(weapon)).toEqual(positions(alone.current!))
    }
    expect((mapOf(body.current!) as DataTexture).name).toContain('igdosh.pcx')
    await vi.waitFor(() => expect((mapOf(weapon) as DataTexture | null)?.name).toContain('g_rail.pcx'))
    // One miss per file shipped with an upper-case extension; the skins are hit first time.
    expect(server.requests.filter((path) => path.startsWith('/a/quake2/ogro/'))).toEqual(
      ['tris.md2', 'tris.MD2', 'igdosh.pcx', 'w_railgun.md2', 'w_railgun.MD2', 'g_rail.pcx'].map((file) => `/a/quake2/ogro/${file}`),
    )
  })

  it('with the folder listing, finds every file with no miss', async () => {
    const server = serveAssets()
    const body = createRef<Group>()
    await mount(<MD2Player ref={body} path={OGRO} files={ogroFiles} skin="KHORNE" weapon="bfg" />)
    await vi.waitFor(() => expect((mapOf(weaponOf(body.current!)!) as DataTexture | null)?.name).toContain('g_bfg.pcx'))
    expect((mapOf(body.current!) as DataTexture).name).toContain('khorne.pcx')
    expect(server.requests).toEqual(['tris.MD2', 'khorne.pcx', 'w_bfg.MD2', 'g_bfg.pcx'].map((file) => `/a/quake2/ogro/${file}`))
  })

  it('falls back to weapon.md2 with weapon.pcx when the folder has no model for the weapon', async () => {
    serveAssets()
    const body = createRef<Group>()
    await mount(<MD2Player ref={body} path={OGRO} files={ogroFiles} weapon="grapple" />)
    await vi.waitFor(() => expect((mapOf(weaponOf(body.current!)!) as DataTexture | null)?.name).toContain('weapon.pcx'))
    expect(weaponOf(body.current!)!.children[0]!.name).toBe(`${OGRO}weapon.md2`)
  })

  it('a folder with neither w_<weapon>.md2 nor weapon.md2 falls back to the base (male) weapon, as Quake II does', async () => {
    const maleWeapon = readFileSync(join(ASSETS_DIR, 'quake2/ogro/weapon.md2'))
    const server = serveAssets({
      '/a/quake2/ogro/weapon.md2': 404,
      '/a/quake2/male/weapon.md2': new Uint8Array(maleWeapon),
      '/a/quake2/male/weapon.pcx': new Uint8Array(readFileSync(join(ASSETS_DIR, 'quake2/ogro/weapon.pcx'))),
    })
    const lacking = ogroFiles.filter((f) => f !== 'weapon.md2')
    const body = createRef<Group>()
    const onWeaponError = vi.fn()
    const r = await mount(<MD2Player ref={body} path={OGRO} files={lacking} weapon="grapple" onWeaponError={onWeaponError} />)
    await vi.waitFor(() => expect(weaponOf(body.current!)?.children[0]?.name).toBe(`${HOST}/a/quake2/male/weapon.md2`))
    expect(server.requests).toContain('/a/quake2/male/weapon.md2')
    expect(onWeaponError).not.toHaveBeenCalled()
    await r.unmount()

    // Another base weapon by URL; or none.
    const named = createRef<Group>()
    await mount(
      <MD2Player ref={named} path={OGRO} files={lacking} weapon="grapple" fallbackWeapon={`${HOST}/a/quake2/sydney/weapon.md2`} />,
    )
    await vi.waitFor(() => expect(weaponOf(named.current!)?.children[0]?.name).toBe(`${HOST}/a/quake2/sydney/weapon.md2`))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const bare = createRef<Group>()
    const failed = vi.fn<(error: MD2Error) => void>()
    await mount(<MD2Player ref={bare} path={OGRO} files={lacking} weapon="chainfist" fallbackWeapon={null} onWeaponError={failed} />)
    await vi.waitFor(() => expect(failed).toHaveBeenCalledTimes(1))
    expect(weaponOf(bare.current!)).toBeUndefined()
    // The base weapon was asked for once (the first player), not for the one that declined it.
    expect(server.requests.filter((path) => /\/male\/weapon\.md2$/i.test(path))).toEqual(['/a/quake2/male/weapon.md2'])
    expect(warn.mock.calls.filter(([message]) => String(message).includes('w_chainfist.md2'))).toHaveLength(1)
  })

  it('a weapon found nowhere warns once and the body is drawn alone; a missing body goes to the error boundary', async () => {
    serveAssets({ '/a/quake2/ogro/weapon.md2': 404 })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onWeaponError = vi.fn<(error: MD2Error) => void>()
    const body = createRef<Group>()
    const r = await mount(
      <MD2Player
        ref={body}
        path={OGRO}
        files={ogroFiles.filter((f) => f !== 'weapon.md2')}
        weapon="grapple"
        onWeaponError={onWeaponError}
      />,
    )
    await vi.waitFor(() => expect(onWeaponError).toHaveBeenCalledTimes(1))
    await r.advanceFrames(3, 0.1)
    expect(onWeaponError.mock.calls[0]![0].code).toBe('LOAD_FAILED')
    expect(warn.mock.calls.filter(([message]) => String(message).includes('w_grapple.md2 or weapon.md2'))).toHaveLength(1)
    expect(meshOf(body.current!).visible).toBe(true)
    expect(positions(body.current!).every(Number.isFinite)).toBe(true)

    vi.spyOn(console, 'error').mockImplementation(() => {})
    const onError = vi.fn()
    await mount(
      <Boundary onError={onError}>
        <MD2Player path={`${HOST}/a/quake2/nobody/`} />
      </Boundary>,
    )
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1))
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'LOAD_FAILED', message: expect.stringContaining('tris.MD2') })
  })

  it('a weapon with fewer frames than the body (pknight) holds its last frame, warned once', async () => {
    serveAssets()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const body = createRef<Group>()
    const r = await mount(<MD2Player ref={body} path={PKNIGHT} skin="knight" weapon="railgun" frame={190} />)
    await vi.waitFor(() => expect(weaponOf(body.current!)).toBeDefined())
    await r.advanceFrames(2, 0.1)
    expect(warn.mock.calls.filter(([message]) => String(message).includes('has 173 frames'))).toHaveLength(1)
    expect(positions(weaponOf(body.current!)!).every(Number.isFinite)).toBe(true)
  })

  it("finds a skin shipped with an upper-case extension (Sydney's ctf_b.PCX) without a listing", async () => {
    const server = serveAssets()
    const body = createRef<Group>()
    await mount(<MD2Player ref={body} path={`${HOST}/a/quake2/sydney/`} skin="ctf_b" />)
    await vi.waitFor(() => expect((mapOf(body.current!) as DataTexture | null)?.name).toContain('ctf_b.PCX'))
    expect(server.requests).toContain('/a/quake2/sydney/ctf_b.PCX')
  })

  it("usePlayerIcon gives the skin's HUD icon, and the checkerboard for a skin with none", async () => {
    serveAssets()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const icons: DataTexture[] = []
    function Hud({ skin }: { skin: string }) {
      icons.push(usePlayerIcon(OGRO, skin) as DataTexture)
      return null
    }
    await mount(<Hud skin="grok" />)
    await vi.waitFor(() => expect(icons.length).toBeGreaterThan(0))
    expect(icons.at(-1)!.name).toContain('grok_i.pcx')
    expect([icons.at(-1)!.image.width, icons.at(-1)!.image.height]).toEqual([32, 32])
    await mount(<Hud skin="cloth" />)
    await vi.waitFor(() => expect(icons.at(-1)).toBe(getMissingSkinTexture()))
  })
})

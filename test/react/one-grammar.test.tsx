/**
 * One grammar for every component: looks are children wherever a model is drawn (a player's weapon
 * included), controllers read out alike, and a wrong value is never silent.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRef, type ReactNode } from 'react'
import type { Group, Mesh, Object3D } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseMD2 } from '../../src/core/internal'
import type { MD2Error } from '../../src/core/MD2Error'
import type { PlayerAnimationController } from '../../src/core/animation/PlayerAnimationController'
import type { MD2AnimationReadout } from '../../src/core/animation/MD2AnimationReadout'
import { MD2BlobShadow } from '../../src/react/looks/MD2BlobShadow'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Player } from '../../src/react/MD2Player'
import { MD2PoseBounds } from '../../src/react/looks/MD2PoseBounds'
import { MD2Quake2Lighting } from '../../src/react/looks/MD2Quake2Lighting'
import { MD2Shell } from '../../src/react/looks/MD2Shell'
import { REMOVED_PROPS } from '../../src/react/checkProps'
import { clearPlayerFiles } from '../../src/react/loading/playerFiles'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { usePlayerAnimation } from '../../src/react/usePlayerAnimation'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import type { MD2CrowdInstance } from '../../src/three/crowd/MD2CrowdInstance'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { Boundary } from '../support/boundary'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'

const OGRO_FOLDER = `${HOST}/a/quake2/ogro/`
const ogroFiles = readdirSync(join(ASSETS_DIR, 'quake2/ogro'))
const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro' })
const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2'), { name: 'ogro weapon' })

afterEach(() => {
  vi.restoreAllMocks()
  clearPlayerFiles()
  useMD2.clear()
  useMD2Skin.clear()
})

const warnings = () => vi.spyOn(console, 'warn').mockImplementation(() => {})
const messagesOf = (warn: ReturnType<typeof warnings>) => warn.mock.calls.map(([message]) => String(message))

/** Every mesh under `root` whose name ends with `suffix` (`' shell'`, `' shadow'`). */
function meshesNamed(root: Object3D, suffix: string): Mesh[] {
  const found: Mesh[] = []
  root.traverse((node) => {
    if ((node as Mesh).isMesh && node.name.endsWith(suffix)) found.push(node as Mesh)
  })
  return found
}

/** Mounts `element` in an error boundary: the error it threw, if any. */
async function errorOf(element: ReactNode): Promise<MD2Error | undefined> {
  let caught: MD2Error | undefined
  vi.spyOn(console, 'error').mockImplementation(() => {})
  await mount(<Boundary onError={(error) => (caught = error as MD2Error)}>{element}</Boundary>)
  return caught
}

describe('looks are children on every component', () => {
  it('<MD2Player> dresses the body and the weapon with its looks; other children stay on the body', async () => {
    serveAssets()
    const body = createRef<Group>()
    const r = await mount(
      <MD2Player ref={body} path={OGRO_FOLDER} files={ogroFiles} weapon="weapon" animation="run">
        <MD2Shell color="blue" />
        <MD2BlobShadow floor={-24} />
        <group name="marker" />
      </MD2Player>,
    )
    await vi.waitFor(() => expect(meshesNamed(body.current!, ' shell')).toHaveLength(2), { timeout: 5000 })
    await r.advanceFrames(2, 0.05)
    const shells = meshesNamed(body.current!, ' shell')
    expect(meshesNamed(body.current!, ' shadow')).toHaveLength(2)
    // Each shell is written from its own model's pose: the weapon's has the weapon's vertex count.
    const counts = shells.map((shell) => shell.geometry.getAttribute('position').count)
    expect(new Set(counts).size).toBe(2)
    let markers = 0
    body.current!.traverse((node) => void (node.name === 'marker' && markers++))
    expect(markers).toBe(1)
  })

  it('<MD2Instances> wears its looks on every instance, <MD2Instance> on itself; its follower wears them too', async () => {
    const crowd = createRef<MD2Crowd>()
    const scene = (own: ReactNode) => (
      <MD2Instances ref={crowd} model={ogro} limit={3} skin={null}>
        <MD2Quake2Lighting shadelight={0.5} />
        <MD2Shell color="red" />
        <MD2Instance animation="stand" />
        <MD2Instance animation="run">{own}</MD2Instance>
      </MD2Instances>
    )
    const r = await mount(scene(<MD2Shell color={[]} />))
    await r.advanceFrames(1, 0.05)
    // Lit the Quake II way: vertex colours on an unlit material.
    expect(crowd.current!.material.type).toBe('MeshBasicMaterial')
    expect(crowd.current!.shadowFloor).toBeUndefined()
    const shelled = () => {
      const layer = crowd.current!.shell
      return layer.visible ? layer.count : 0
    }
    // Instance 0 wears the crowd's red shell, instance 1 none (its own `color={[]}`).
    expect(shelled()).toBe(1)
    await r.update(scene(null))
    await r.advanceFrames(1, 0.05)
    expect(shelled()).toBe(2)
    // One instance's blob shadow: its floor is the crowd's, for every shadow it draws.
    await r.update(scene(<MD2BlobShadow floor={-24} />))
    await r.advanceFrames(1, 0.05)
    expect(crowd.current!.shadowFloor).toBe(-24)
    expect(crowd.current!.shadow.visible).toBe(true)
  })

  it('a look where it cannot apply warns once and draws nothing, never throws', async () => {
    const warn = warnings()
    const r = await mount(
      <>
        <MD2Shell color="red" />
        <MD2Instances model={ogro} limit={1} skin={null}>
          <MD2PoseBounds />
          <MD2Instance>
            <MD2Quake2Lighting shadelight={0.3} />
          </MD2Instance>
        </MD2Instances>
      </>,
    )
    await r.advanceFrames(2, 0.05)
    const messages = messagesOf(warn)
    expect(messages.filter((m) => m.includes('<MD2Shell> dresses the <MD2Model>') && m.includes('is in none'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('<MD2PoseBounds> in <MD2Instances>') && m.includes('getPoseBounds'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('<MD2Quake2Lighting> in an <MD2Instance>') && m.includes('ignored here'))).toHaveLength(1)
  })
})

describe('one controller shape', () => {
  it('usePlayerAnimation() drives <MD2Player> from its folder: animation, frame, playing and events read out as every controller', async () => {
    serveAssets()
    let player: PlayerAnimationController | undefined
    const ends: string[] = []
    const loops: string[] = []
    function Player() {
      player = usePlayerAnimation({ onEnd: (animation) => ends.push(animation.name), onLoop: (animation) => loops.push(animation.name) })
      return <MD2Player path={OGRO_FOLDER} files={ogroFiles} weapon="weapon" controller={player} />
    }
    const r = await mount(<Player />)
    await vi.waitFor(() => expect(player).toBeDefined())
    const readout: MD2AnimationReadout = player!
    expect(readout.animation.name).toBe('stand')
    await r.advanceFrames(3, 0.05)
    expect(readout.frame).toBeGreaterThan(0)
    expect(readout.frame).toBeLessThan(2)
    player!.input.moving = true
    await r.advanceFrames(2, 0.1)
    expect(readout.animation.name).toBe('run')
    await r.advanceFrames(7, 0.1)
    expect(loops).toContain('run')
    // The fire button held: the attack plays through and again, not restarted every tick.
    player!.input.attacking = true
    const frames: number[] = []
    for (let i = 0; i < 18; i++) {
      await r.advanceFrames(1, 0.1)
      frames.push(player!.state.frame)
    }
    expect(frames.slice(0, 8)).toEqual([46, 47, 48, 49, 50, 51, 52, 53])
    expect(frames.slice(8, 16)).toEqual([46, 47, 48, 49, 50, 51, 52, 53])
    expect(ends.filter((name) => name === 'attack')).toHaveLength(2)
    // Each refire is a new shot (onEnd), not a loop: onLoop is a stand or run gone round.
    expect(loops.filter((name) => name === 'attack')).toEqual([])
    expect(loops.every((name) => name === 'run' || name === 'stand')).toBe(true)
    player!.input.attacking = false
    player!.input.dead = true
    await r.advanceFrames(12, 0.1)
    expect(readout.animation.name).toMatch(/^death/)
    expect(readout.playing).toBe(false)
    expect(ends.filter((name) => name.startsWith('death'))).toHaveLength(1)
  })

  it("an <MD2Instance>'s controller reads out the same: animation, a fractional frame, playing; no slot reads as nothing else's", async () => {
    const control = createRef<MD2CrowdInstance>()
    const r = await mount(
      <MD2Instances model={ogro} limit={1} skin={null}>
        <MD2Instance controllerRef={control} animation="run" fps={5} />
      </MD2Instances>,
    )
    await r.advanceFrames(1, 0.1)
    const readout: MD2AnimationReadout = control.current!
    const kept = control.current!
    expect(readout.animation.name).toBe('run')
    expect(readout.playing).toBe(true)
    expect(readout.frame).toBeCloseTo(40.5, 5)
    await r.unmount()
    // Unmounted: the last pose read, never NaN or another slot's.
    expect(Number.isFinite(kept.frame)).toBe(true)
    expect(kept.playing).toBe(false)
  })

  it('a player controller on a model without the player frames is refused, naming the hook', async () => {
    const small = parseMD2(readAsset('ufoai/wc/wc.md2'), { name: 'wc' })
    expect(small.header.numFrames).toBeLessThan(198)
    function Pickup() {
      const player = usePlayerAnimation()
      return <MD2Model model={small} controller={player} skin={null} />
    }
    const error = await errorOf(<Pickup />)
    expect(error?.code).toBe('BAD_ARGUMENT')
    expect(error?.message).toMatch(/usePlayerAnimation.*198 frames.*wc has \d+/)
    // The player's own weapon has the player's frames: played by the rules without a word.
    function Weapon() {
      const player = usePlayerAnimation()
      return <MD2Model model={weapon} controller={player} skin={null} />
    }
    expect(await errorOf(<Weapon />)).toBeUndefined()
  })
})

describe('nothing silent', () => {
  it('a URL where parsed data goes is refused with a coded error naming the hook that makes it', async () => {
    const tags = await errorOf(<MD2Model model={ogro} tags={'body.tag' as never} skin={null} />)
    expect(tags?.code).toBe('BAD_ARGUMENT')
    expect(tags?.message).toContain('<MD2Model tags> takes what useMD2Tags(url) or parseMD2Tags(bytes) makes')
    expect(tags?.message).toContain('"body.tag"')
    const model = await errorOf(<MD2Instances model={'/ogro.md2' as never} />)
    expect(model?.message).toContain('<MD2Instances model> takes what useMD2(url) or parseMD2(bytes)')
    const controller = await errorOf(<MD2Model model={ogro} controller={'run' as never} skin={null} />)
    expect(controller?.message).toContain('<MD2Model controller> takes what useMD2Animation(model), usePlayerAnimation()')
    const table = await errorOf(<MD2Model model={ogro} animationTable={'run 0 5' as never} skin={null} />)
    expect(table?.message).toContain('parseAnimationTable')
  })

  it('a prop removed in 0.x warns once in development, naming what replaced it', async () => {
    const warn = warnings()
    const old = { lighting: 'quake2', shell: 'red' } as never
    const r = await mount(
      <>
        <MD2Model model={ogro} skin={null} {...(old as object)} />
        <MD2Model model={ogro} skin={null} {...(old as object)} />
        <MD2Instances model={ogro} limit={1} skin={null} {...({ shadow: 'blob' } as object)}>
          <MD2Instance {...({ shell: 'blue' } as object)} />
        </MD2Instances>
      </>,
    )
    await r.advanceFrames(1, 0.05)
    const messages = messagesOf(warn)
    expect(messages.filter((m) => m.includes('<MD2Model lighting> was removed') && m.includes('<MD2Quake2Lighting'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('<MD2Model shell> was removed') && m.includes('<MD2Shell color'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('<MD2Instances shadow> was removed') && m.includes('<MD2BlobShadow'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('<MD2Instance shell> was removed') && m.includes('<MD2Shell'))).toHaveLength(1)
  })

  it('a removed prop given to <MD2Player> warns once, not again from the <MD2Model> that draws its body', async () => {
    serveAssets()
    const warn = warnings()
    const body = createRef<Group>()
    await mount(<MD2Player ref={body} path={OGRO_FOLDER} files={ogroFiles} {...({ shell: 'red' } as object)} />)
    await vi.waitFor(() => expect(body.current).toBeTruthy())
    const said = messagesOf(warn).filter((m) => m.includes('shell> was removed'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('<MD2Player shell>')
  })

  it('a prop on the wrong component warns once in development, naming the component it belongs on', async () => {
    serveAssets()
    const warn = warnings()
    const body = createRef<Group>()
    const misplaced = (props: object): object => props
    const r = await mount(
      <>
        <MD2Instances model={ogro} limit={2} skin={null} {...misplaced({ animation: 'run', onLoop: () => {} })}>
          <MD2Instance {...misplaced({ limit: 3, skin: 0 })} />
          <MD2Instance {...misplaced({ limit: 3 })} />
        </MD2Instances>
        <MD2Model model={ogro} skin={null} {...misplaced({ weapon: 'railgun', limit: 4, hand: 'left' })} />
        <MD2Player ref={body} path={OGRO_FOLDER} files={ogroFiles} {...misplaced({ url: `${OGRO_FOLDER}tris.MD2`, sync: true })} />
      </>,
    )
    await vi.waitFor(() => expect(body.current).toBeTruthy())
    await r.advanceFrames(1, 0.05)
    const messages = messagesOf(warn)
    const once = (start: string, where: string) =>
      expect(
        messages.filter((m) => m.includes(start) && m.includes(where)),
        `${start} … ${where} in ${JSON.stringify(messages)}`,
      ).toHaveLength(1)
    once('<MD2Instances animation> does nothing', '`animation` belongs on <MD2Instance>')
    once('<MD2Instances onLoop> does nothing', '`onLoop` belongs on <MD2Instance>')
    once('<MD2Instance limit> does nothing', '`limit` belongs on <MD2Instances>')
    once('<MD2Instance skin> does nothing', '`skin` belongs on <MD2Instances>')
    once('<MD2Model weapon> does nothing', '`weapon` belongs on <MD2Player>')
    once('<MD2Model limit> does nothing', '`limit` belongs on <MD2Instances>')
    once('<MD2Model hand> does nothing', '`hand` belongs on <MD2ViewWeapon>')
    once('<MD2Player url> does nothing', '<MD2Player> takes `path`')
    once('<MD2Player sync> does nothing', '`sync` belongs on <MD2Model>')
    // The player's body (an <MD2Model>) does not warn of them again; props that are in their place say nothing.
    expect(messages.filter((m) => /<MD2Model (url|sync)>/.test(m))).toEqual([])
    expect(messages.filter((m) => m.includes('does nothing here'))).toHaveLength(9)
  })

  it("the CHANGELOG's rename table lists every removed prop the warnings name", () => {
    const changelog = readFileSync(join(__dirname, '../../CHANGELOG.md'), 'utf8')
    const table = changelog.slice(changelog.indexOf('### Renamed and moved'))
    const rows = table.split('\n').filter((line) => line.startsWith('|'))
    for (const { component, props } of REMOVED_PROPS) {
      for (const prop of props) {
        const row = rows.find(
          (line) => line.split('|')[1]!.includes(`<${component} `) && new RegExp(`\\b${prop}\\b`).test(line.split('|')[1]!),
        )
        expect(row, `<${component} ${prop}> in the CHANGELOG's table`).toBeDefined()
      }
    }
  })

  it('other wrong values: an object that is not a texture as the skin is refused; a bad crossfade warns once', async () => {
    const warn = warnings()
    const skin = await errorOf(<MD2Model model={ogro} skin={{ url: 'igdosh.pcx' } as never} />)
    expect(skin?.code).toBe('BAD_ARGUMENT')
    expect(skin?.message).toContain('<MD2Model skin> takes what a URL, a name, an index, null, or a three.js texture loader makes')
    let player: PlayerAnimationController | undefined
    function Player() {
      player = usePlayerAnimation({ crossfade: -0.5 })
      return null
    }
    const r = await mount(<Player />)
    await r.advanceFrames(1, 0.05)
    expect(player!.crossfade).toBe(0)
    expect(messagesOf(warn).filter((m) => m.includes('crossfade={-0.5}') && m.includes('using 0'))).toHaveLength(1)
  })
})

import { createRef } from 'react'
import type { BufferAttribute, BufferGeometry, Group, Mesh, MeshBasicMaterial, Object3D } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ANORMS, ANORMTAB, buildVertexLayout, parseMD2, type MD2ModelData as Model } from '../../src/core/internal'
import { effectiveShadelight, shadeDotsRow, shellColor } from '../../src/core/lighting/quake2Light'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Shell } from '../../src/react/looks/MD2Shell'
import { MD2Quake2Lighting, type MD2Quake2LightingProps } from '../../src/react/looks/MD2Quake2Lighting'
import { MD2BlobShadow } from '../../src/react/looks/MD2BlobShadow'
import { readAsset } from '../support/assets'
import { mount, type Renderer } from '../support/render'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro/tris.MD2' })
const soldier = parseMD2(readAsset('ufoai/soldier-male/body.md2'), { name: 'soldier/body.md2' })

afterEach(() => {
  vi.restoreAllMocks()
})

/** The normal index of MD2 vertex `v` in frame `f`, read from the file's bytes with a DataView. */
function normalIndex(model: Model, bytes: Uint8Array, f: number, v: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const offsetFrames = view.getInt32(56, true)
  const frameSize = view.getInt32(16, true)
  return view.getUint8(offsetFrames + f * frameSize + 40 + v * 4 + 3)
}

const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)

/** What Quake II computes for each drawn vertex: shadedots[n of the frame blended towards] × shadelight, clamped. */
function expectedColors(model: Model, bytes: Uint8Array, to: number, yawDegrees: number, shade: readonly number[]): Float32Array {
  const { xyzIndex } = buildVertexLayout(model)
  const row = Math.trunc((yawDegrees * 16) / 360) & 15
  const out = new Float32Array(xyzIndex.length * 3)
  for (let i = 0; i < xyzIndex.length; i++) {
    const n = normalIndex(model, bytes, to, xyzIndex[i]!)
    for (let c = 0; c < 3; c++) out[i * 3 + c] = linear(Math.min(1, ANORMTAB[row * 256 + n]! * shade[c]!))
  }
  return out
}

async function lit(
  model: Model,
  { shadelight, minlight, fullbright, glow, ...props }: Record<string, unknown> & MD2Quake2LightingProps,
  yawDegrees: number,
): Promise<{ group: Group; renderer: Renderer }> {
  const ref = createRef<Group>()
  const renderer = await mount(
    <MD2Model ref={ref} model={model} rotation-y={(yawDegrees * Math.PI) / 180} {...props}>
      <MD2Quake2Lighting shadelight={shadelight} minlight={minlight} fullbright={fullbright} glow={glow} />
    </MD2Model>,
  )
  // No render runs in the test renderer: bring the world matrix up to date as one would.
  ref.current!.updateMatrixWorld(true)
  await renderer.advanceFrames(2, 1 / 60)
  return { group: ref.current!, renderer }
}

const colorsOf = (group: Group) => ((group.children[0] as Mesh).geometry as BufferGeometry).getAttribute('color').array as Float32Array

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length)
  let worst = 0
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!))
  return worst
}

describe('Quake II lighting', () => {
  const cases: [string, Model, Uint8Array, number, number, [number, number, number]][] = [
    ['ogro frame 0, yaw 0', ogro, readAsset('quake2/ogro/tris.MD2'), 0, 0, [1, 1, 1]],
    ['ogro frame 41, yaw 100°', ogro, readAsset('quake2/ogro/tris.MD2'), 41, 100, [0.8, 0.55, 0.3]],
    ['ogro frame 150, yaw −170°', ogro, readAsset('quake2/ogro/tris.MD2'), 150, -170, [0.4, 0.4, 0.4]],
    ['soldier frame 500, yaw 170°', soldier, readAsset('ufoai/soldier-male/body.md2'), 500, 170, [1.2, 0.9, 0.7]],
  ]
  for (const [label, model, bytes, frame, yaw, shade] of cases) {
    it(`the color attribute is shadedots × shadelight, vertex for vertex: ${label}`, async () => {
      const { group } = await lit(model, { frame, shadelight: shade }, yaw)
      expect(shadeDotsRow(yaw)).toBe(Math.trunc((yaw * 16) / 360) & 15)
      expect(maxDifference(colorsOf(group), expectedColors(model, bytes, frame, yaw, shade))).toBeLessThan(1e-6)
      expect((group.children[0] as Mesh<BufferGeometry, MeshBasicMaterial>).material.vertexColors).toBe(true)
    })
  }

  it('lights by the frame blended towards, not the one left', async () => {
    const bytes = readAsset('quake2/ogro/tris.MD2')
    const { group } = await lit(ogro, { frame: 40.5 }, 30)
    expect(maxDifference(colorsOf(group), expectedColors(ogro, bytes, 41, 30, [1, 1, 1]))).toBeLessThan(1e-6)
    expect(maxDifference(colorsOf(group), expectedColors(ogro, bytes, 40, 30, [1, 1, 1]))).toBeGreaterThan(0.01)
  })

  it('turning the model through the 16 yaw steps relights it; within a step nothing is rewritten', async () => {
    const bytes = readAsset('quake2/ogro/tris.MD2')
    const ref = createRef<Group>()
    const renderer = await mount(
      <MD2Model ref={ref} model={ogro} frame={10}>
        <MD2Quake2Lighting />
      </MD2Model>,
    )
    for (const yaw of [0, 22.4, 22.6, 200, 359]) {
      ref.current!.rotation.y = (yaw * Math.PI) / 180
      ref.current!.updateMatrixWorld(true)
      const color = ((ref.current!.children[0] as Mesh).geometry as BufferGeometry).getAttribute('color') as BufferAttribute
      const version = color.version
      await renderer.advanceFrames(1, 1 / 60)
      // The yaw is read back from the world matrix in (−180°, 180°], as Quake II's network angles are:
      // 200° is −160°, one light row apart once Quake truncates towards zero.
      const read = yaw > 180 ? yaw - 360 : yaw
      expect(maxDifference(colorsOf(ref.current!), expectedColors(ogro, bytes, 10, read, [1, 1, 1]))).toBeLessThan(1e-6)
      await renderer.advanceFrames(1, 1 / 60)
      expect(color.version).toBeGreaterThanOrEqual(version)
      const settled = color.version
      await renderer.advanceFrames(3, 1 / 60)
      expect(color.version).toBe(settled)
    }
  })

  it('the flags: minlight raises a dark light to 0.1, fullbright sets 1, glow pulses but never below 0.8 of the light', async () => {
    const bytes = readAsset('quake2/ogro/tris.MD2')
    const dark = await lit(ogro, { frame: 5, shadelight: [0.05, 0.02, 0.1], minlight: true }, 45)
    expect(maxDifference(colorsOf(dark.group), expectedColors(ogro, bytes, 5, 45, [0.1, 0.1, 0.1]))).toBeLessThan(1e-6)
    const notDark = await lit(ogro, { frame: 5, shadelight: [0.05, 0.02, 0.11], minlight: true }, 45)
    expect(maxDifference(colorsOf(notDark.group), expectedColors(ogro, bytes, 5, 45, [0.05, 0.02, 0.11]))).toBeLessThan(1e-6)
    const full = await lit(ogro, { frame: 5, shadelight: 0.2, fullbright: true }, 45)
    expect(maxDifference(colorsOf(full.group), expectedColors(ogro, bytes, 5, 45, [1, 1, 1]))).toBeLessThan(1e-6)
    // Glow at t = 2 × 1/60 s (two frames advanced): 0.1 × sin(7 t), floor 0.8 × light.
    const t = 2 / 60
    const base: [number, number, number] = [0.5, 0.3, 0.05]
    const pulsed = base.map((c) => Math.max(c + 0.1 * Math.sin(7 * t), 0.8 * c))
    const glowing = await lit(ogro, { frame: 5, shadelight: base, glow: true }, 45)
    expect(maxDifference(colorsOf(glowing.group), expectedColors(ogro, bytes, 5, 45, pulsed))).toBeLessThan(1e-5)
    // The engine's own order: fullbright, then minlight, then glow (checked on the helper directly).
    const out = new Float64Array(3)
    for (const c of effectiveShadelight([0.05, 0.05, 0.05], { minlight: true, glow: true }, { seconds: Math.PI / 14 }, out))
      expect(c).toBeCloseTo(0.2, 12)
  })
})

describe('power shells', () => {
  it('shell colours combine as the engine sets them: half, double, then red, green, blue', () => {
    expect(shellColor('half')).toEqual([0.56, 0.59, 0.45])
    expect(shellColor('double')).toEqual([0.9, 0.7, 0])
    expect(shellColor('blue')).toEqual([0, 0, 1])
    expect(shellColor(['red', 'blue'])).toEqual([1, 0, 1])
    expect(shellColor(['half', 'red'])).toEqual([1, 0.59, 0.45])
    expect(shellColor(['double', 'blue'])).toEqual([0.9, 0.7, 1])
    expect(shellColor([0.2, 0.4, 0.6])).toEqual([0.2, 0.4, 0.6])
  })

  for (const [label, props] of [
    ['still frame', { frame: 77 }],
    ['between keyframes', { frame: 40.3 }],
    ['Quake II lighting', { frame: 12.5, lit: true }],
  ] as const) {
    it(`the shell's vertices are the body's plus 4 units along the normal of the frame blended towards: ${label}`, async () => {
      const bytes = readAsset('quake2/ogro/tris.MD2')
      const ref = createRef<Group>()
      const plain = createRef<Group>()
      const renderer = await mount(
        <>
          <MD2Model ref={ref} model={ogro} frame={props.frame}>
            <MD2Shell color={['red', 'blue']} />
            {'lit' in props && <MD2Quake2Lighting />}
          </MD2Model>
          <MD2Model ref={plain} model={ogro} frame={props.frame}>
            {'lit' in props && <MD2Quake2Lighting />}
          </MD2Model>
        </>,
      )
      await renderer.advanceFrames(2, 1 / 60)
      // The body of a shelled model is drawn exactly as without the shell.
      const plainPositions = (plain.current!.children[0] as Mesh).geometry.getAttribute('position').array as Float32Array
      const bodyPositions = (ref.current!.children[0] as Mesh).geometry.getAttribute('position').array as Float32Array
      let bodyWorst = 0
      for (let i = 0; i < plainPositions.length; i++) bodyWorst = Math.max(bodyWorst, Math.abs(plainPositions[i]! - bodyPositions[i]!))
      expect(bodyWorst).toBeLessThan(1e-4)
      const body = ref.current!.children[0] as Mesh
      const shellMesh = ref.current!.getObjectByName('ogro/tris.MD2 shell') as Mesh
      expect(shellMesh.parent!.name).toBe('ogro/tris.MD2 children')
      const material = shellMesh!.material as MeshBasicMaterial
      expect([material.transparent, material.opacity, material.map]).toEqual([true, 0.3, null])
      const positions = body!.geometry.getAttribute('position').array as Float32Array
      const shell = shellMesh!.geometry.getAttribute('position').array as Float32Array
      const to = Math.min(Math.ceil(props.frame), ogro.header.numFrames - 1)
      const { xyzIndex } = buildVertexLayout(ogro)
      let worst = 0
      for (let i = 0; i < xyzIndex.length; i++) {
        const n = normalIndex(ogro, bytes, to, xyzIndex[i]!)
        // Quake (x, y, z) normal → Y-up (y, z, x).
        const normal = [ANORMS[n * 3 + 1]!, ANORMS[n * 3 + 2]!, ANORMS[n * 3]!]
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(shell[i * 3 + c]! - (positions[i * 3 + c]! + 4 * normal[c]!)))
      }
      expect(worst).toBeLessThan(1e-5)
    })
  }
})

describe('blob shadow', () => {
  it('the shadow lies on the floor plane (1 unit above it), each vertex moved along the shade vector by its height', async () => {
    const ref = createRef<Group>()
    const yaw = 30
    const renderer = await mount(
      <MD2Model ref={ref} model={ogro} frame={44.5} rotation-y={(yaw * Math.PI) / 180}>
        <MD2BlobShadow floor={-24} />
      </MD2Model>,
    )
    ref.current!.updateMatrixWorld(true)
    await renderer.advanceFrames(2, 1 / 60)
    const body = ref.current!.children[0] as Mesh
    const shadowMesh = ref.current!.getObjectByName('ogro/tris.MD2 shadow') as Mesh
    const material = shadowMesh!.material as MeshBasicMaterial
    expect([material.opacity, material.transparent, material.stencilWrite, material.color.getHex()]).toEqual([0.5, true, true, 0])
    const positions = body!.geometry.getAttribute('position').array as Float32Array
    const shadow = shadowMesh!.geometry.getAttribute('position').array as Float32Array
    // Quake's shade vector, normalize(cos(−yaw), sin(−yaw), 1): its x (Quake x = Y-up Z) and y (= Y-up X).
    const a = (yaw * Math.PI) / 180
    const length = Math.hypot(Math.cos(-a), Math.sin(-a), 1)
    const [sx, sy] = [Math.cos(-a) / length, Math.sin(-a) / length]
    const lheight = 24
    let worst = 0
    for (let i = 0; i < positions.length; i += 3) {
      const rise = positions[i + 1]! + lheight
      worst = Math.max(
        worst,
        Math.abs(shadow[i + 1]! - (1 - lheight)),
        Math.abs(shadow[i]! - (positions[i]! - sy * rise)),
        Math.abs(shadow[i + 2]! - (positions[i + 2]! - sx * rise)),
      )
    }
    expect(worst).toBeLessThan(1e-4)
  })

  it('follows the animation and the floor: another frame or floor rewrites it', async () => {
    const ref = createRef<Group>()
    const renderer = await mount(
      <MD2Model ref={ref} model={ogro} animation="run">
        <MD2BlobShadow />
      </MD2Model>,
    )
    ref.current!.updateMatrixWorld(true)
    await renderer.advanceFrames(1, 1 / 60)
    const shadowOf = () =>
      (ref.current!.getObjectByName('ogro/tris.MD2 shadow') as Mesh).geometry.getAttribute('position').array as Float32Array
    const first = shadowOf().slice()
    // Default floor: under the lowest point of any frame.
    const lowest = Math.min(...Array.from({ length: first.length / 3 }, (_, i) => first[i * 3 + 1]!))
    expect(lowest).toBeGreaterThan(-40)
    await renderer.advanceFrames(6, 1 / 60)
    let moved = 0
    const now = shadowOf()
    for (let i = 0; i < now.length; i++) moved = Math.max(moved, Math.abs(now[i]! - first[i]!))
    expect(moved).toBeGreaterThan(0.5)
  })
})

describe('view weapon', () => {
  it('follows the camera, faces its view, mirrors for the left hand, hides for center, and squeezes its depth into the nearest 30%', async () => {
    const { MD2ViewWeapon } = await import('../../src/react/MD2ViewWeapon')
    const { Matrix4 } = await import('three')
    const gun = parseMD2(readAsset('quake2/ogro/w_railgun.MD2'), { name: 'w_railgun.MD2' })
    for (const hand of ['right', 'left', 'center'] as const) {
      const ref = createRef<Group>()
      const renderer = await mount(<MD2ViewWeapon ref={ref} model={gun} hand={hand} />)
      await renderer.advanceFrames(2, 1 / 60)
      const group = ref.current!
      // The scene's matrices updated as three updates them before it draws (the test renderer does not draw).
      let scene: Object3D = group
      while (scene.parent) scene = scene.parent
      scene.updateMatrixWorld()
      const determinant = group.matrixWorld.determinant()
      expect(Math.sign(determinant)).toBe(hand === 'left' ? -1 : 1)
      expect(group.visible).toBe(hand !== 'center')
      // The model's +Z (Quake's +X, where view models point) is the camera's forward: −Z for this camera.
      const forward = new Matrix4().extractRotation(group.matrixWorld).elements.slice(8, 11)
      expect(forward[2]).toBeCloseTo(-1, 5)
      const mesh = group.children[0]!.children[0] as Mesh
      const shader = { vertexShader: 'void main() {\n#include <project_vertex>\n}', fragmentShader: '', uniforms: {} }
      ;(mesh.material as MeshBasicMaterial).onBeforeCompile(shader as never, undefined as never)
      expect(shader.vertexShader).toContain('#include <project_vertex>\ngl_Position.z = 0.3 * gl_Position.z - 0.7 * gl_Position.w;')
    }
  })
})

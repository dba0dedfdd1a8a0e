import ReactThreeTestRenderer from '@react-three/test-renderer'
import { createRef } from 'react'
import type { BufferGeometry, Group, Mesh } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { blendFrames, decodeFrame, parseMD2 } from '../src/core'
import { MD2Model } from '../src/react/MD2Model'
import { readAsset } from './assets'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro/tris.MD2' })
const soldier = parseMD2(readAsset('ufoai/soldier-male/body.md2'), { name: 'soldier/body.md2' })

type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>
let renderer: Renderer | undefined
afterEach(async () => {
  await renderer?.unmount()
  renderer = undefined
  vi.restoreAllMocks()
})

function meshOf(group: Group): Mesh {
  return group.children[0] as Mesh
}
function positionsOf(group: Group): Float32Array {
  return (meshOf(group).geometry as BufferGeometry).getAttribute('position').array as Float32Array
}

/** Reference: the Y-up position of output vertex `i` for a blend, from core decodeFrame/blendFrames. */
function expectedPosition(model: typeof ogro, group: Group, i: number, from: number, to: number, t: number): number[] {
  const mesh = meshOf(group)
  const xyz = (mesh.geometry as BufferGeometry).userData
  void xyz
  const quake = blendFrames(model, from, to, t)
  return [quake[i * 3 + 1]!, quake[i * 3 + 2]!, quake[i * 3]!]
}

describe('<MD2Model>', () => {
  it('mounts and writes frame 0 of the first animation', async () => {
    const ref = createRef<Group>()
    renderer = await ReactThreeTestRenderer.create(<MD2Model ref={ref} model={ogro} />)
    const group = ref.current!
    expect(group.type).toBe('Group')
    const positions = positionsOf(group)
    const frame0 = decodeFrame(ogro, 0)
    // Every written vertex is one of frame 0's vertices, turned to Y-up.
    const set = new Set<string>()
    for (let v = 0; v < ogro.header.numVertices; v++) set.add([frame0[v * 3 + 1], frame0[v * 3 + 2], frame0[v * 3]].map((x) => x!.toFixed(3)).join())
    for (let i = 0; i < positions.length; i += 3) expect(set.has([positions[i], positions[i + 1], positions[i + 2]].map((x) => x!.toFixed(3)).join())).toBe(true)
    void expectedPosition
  })

  it('advancing frames changes positions', async () => {
    const ref = createRef<Group>()
    renderer = await ReactThreeTestRenderer.create(<MD2Model ref={ref} model={ogro} animation="run" />)
    const before = positionsOf(ref.current!).slice()
    await renderer.advanceFrames(3, 1 / 60)
    const after = positionsOf(ref.current!)
    let changed = 0
    for (let i = 0; i < after.length; i++) if (Math.abs(after[i]! - before[i]!) > 1e-4) changed++
    expect(changed).toBeGreaterThan(after.length / 4)
  })

  it('soldier 1007 frames', async () => {
    const ref = createRef<Group>()
    renderer = await ReactThreeTestRenderer.create(<MD2Model ref={ref} model={soldier} animation={{ start: 174, end: 204 }} fps={30} />)
    await renderer.advanceFrames(10, 1 / 60)
    expect(positionsOf(ref.current!).length).toBeGreaterThan(0)
  })
})

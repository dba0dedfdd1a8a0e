/**
 * Pointer events on `<MD2Instance>` in a real canvas, from real mouse input at pixel positions (Playwright's
 * mouse, through Chromium): each instance's handlers fire for it alone, against its pose as drawn; a click on
 * empty space fires none; `<MD2Instances onClick>` still gets every instance's hit once, `instanceId` being
 * the instance's `controllerRef.index`; `stopPropagation` on an instance keeps the event from the crowd.
 */
import { useFrame } from '@react-three/fiber'
import { createRef, type ReactNode } from 'react'
import { Vector3, type Camera, type Group } from 'three'
import { expect, test } from 'vitest'
import { userEvent } from 'vitest/browser'
import { MD2Instance, MD2Instances, type MD2CrowdInstance } from '../../src/index'
import type { ThreeEvent } from '@react-three/fiber'
import { mount, waitUntil } from './canvas'

const OGRO = '/assets/quake2/ogro/tris.MD2'
const OGRO_SKIN = '/assets/quake2/ogro/igdosh.pcx'
/** Where the two instances stand (x), the third (without handlers) behind, to the right. */
const A_X = -28
const B_X = 28

interface Log {
  events: string[]
  crowd: (number | undefined)[]
}

/** The R3F camera, as the last frame drew with it. */
const seen: { camera?: Camera } = {}
function CameraOut() {
  useFrame((state) => {
    seen.camera = state.camera
  })
  return null
}

/** The canvas pixel (from its top left) where the world point `(x, y, 0)` is drawn. */
function pixelOf(canvas: HTMLCanvasElement, x: number, y: number): { x: number; y: number } {
  const p = new Vector3(x, y, 0).project(seen.camera!)
  return { x: Math.round(((p.x + 1) / 2) * canvas.clientWidth), y: Math.round(((1 - p.y) / 2) * canvas.clientHeight) }
}

const refs = {
  a: createRef<MD2CrowdInstance>(),
  b: createRef<MD2CrowdInstance>(),
  c: createRef<MD2CrowdInstance>(),
  groupA: createRef<Group>(),
}

/** Two ogros with handlers (A left, B right), a third (C) without, between them further back; the crowd's onClick. */
function scene(log: Log, { stopA = false } = {}): ReactNode {
  const handlers = (name: string, stop = false) => {
    const record = (kind: string) => (event: ThreeEvent<PointerEvent | MouseEvent>) => {
      log.events.push(`${name} ${kind} ${String(event.instanceId)}`)
      if (stop && kind === 'click') event.stopPropagation()
    }
    return {
      onClick: record('click'),
      onPointerEnter: record('enter'),
      onPointerLeave: record('leave'),
      onPointerOver: record('over'),
      onPointerOut: record('out'),
      onPointerMissed: () => log.events.push(`${name} missed`),
    }
  }
  return (
    <>
      <CameraOut />
      <MD2Instances url={OGRO} skin={OGRO_SKIN} limit={4} onClick={(event) => log.crowd.push(event.instanceId)}>
        <MD2Instance ref={refs.groupA} controllerRef={refs.a} position={[A_X, 0, 0]} frame={0} {...handlers('A', stopA)} />
        <MD2Instance controllerRef={refs.b} position={[B_X, 0, 0]} frame={0} {...handlers('B')} />
        <MD2Instance controllerRef={refs.c} position={[0, 0, -80]} frame={0} />
      </MD2Instances>
    </>
  )
}

test('<MD2Instance> pointer handlers fire for the instance under the pointer alone', async () => {
  const log: Log = { events: [], crowd: [] }
  const { stage, render } = await mount(scene(log))
  const canvas = stage.canvas
  await waitUntil(
    () => refs.a.current !== null && refs.a.current.index >= 0 && seen.camera !== undefined,
    'the instances to claim their slots',
  )
  // Every instance drawn before any input (the crowd draws what is in view).
  await stage.settle(() => true, 'a frame with the instances')
  const a = refs.a.current!.index
  const b = refs.b.current!.index
  const c = refs.c.current!.index
  expect(new Set([a, b, c]).size).toBe(3)
  const overA = pixelOf(canvas, A_X, 0)
  const overB = pixelOf(canvas, B_X, 0)
  // C stands far back between them: its torso, seen between A and B.
  const overC = pixelOf(canvas, 0, 0)
  const empty = { x: 5, y: 5 }

  await userEvent.click(canvas, { position: overA })
  expect(log.events.filter((e) => e.includes('click'))).toEqual([`A click ${a}`])
  expect(log.crowd).toEqual([a])
  // onPointerMissed: the click missed B (R3F calls it once per handler the click reaches: a set).
  expect(new Set(log.events.filter((e) => e.includes('missed')))).toEqual(new Set(['B missed']))

  log.events.length = 0
  log.crowd.length = 0
  await userEvent.click(canvas, { position: overB })
  expect(log.events.filter((e) => e.includes('click'))).toEqual([`B click ${b}`])
  expect(log.crowd).toEqual([b])

  // Empty space: nothing.
  log.events.length = 0
  log.crowd.length = 0
  await userEvent.click(canvas, { position: empty })
  expect(log.events.filter((e) => e.includes('click'))).toEqual([])
  expect(log.crowd).toEqual([])
  expect(new Set(log.events.filter((e) => e.includes('missed')))).toEqual(new Set(['A missed', 'B missed']))

  // The instance without handlers is hit by the crowd's own raycast, once.
  await userEvent.click(canvas, { position: overC })
  expect(log.events.filter((e) => e.includes('click'))).toEqual([])
  expect(log.crowd).toEqual([c])

  // Hover: enter and over on A, then out of A into B, then out of B into empty space.
  log.events.length = 0
  await userEvent.hover(canvas, { position: empty })
  await userEvent.hover(canvas, { position: overA })
  expect(log.events).toEqual([`A over ${a}`, `A enter ${a}`])
  log.events.length = 0
  await userEvent.hover(canvas, { position: overB })
  expect(log.events.sort()).toEqual([`A leave ${a}`, `A out ${a}`, `B enter ${b}`, `B over ${b}`])
  log.events.length = 0
  await userEvent.hover(canvas, { position: empty })
  expect(log.events.sort()).toEqual([`B leave ${b}`, `B out ${b}`])

  // stopPropagation on A keeps its click from the crowd; B's still reaches it.
  render(scene(log, { stopA: true }))
  log.events.length = 0
  log.crowd.length = 0
  await userEvent.click(canvas, { position: overA })
  expect(log.events.filter((e) => e.includes('click'))).toEqual([`A click ${a}`])
  expect(log.crowd).toEqual([])
  await userEvent.click(canvas, { position: overB })
  expect(log.crowd).toEqual([b])

  // The hit is against the pose drawn: A lying dead is missed where its standing torso was.
  log.events.length = 0
  log.crowd.length = 0
  refs.a.current!.showFrame(refs.a.current!.animations.find((x) => x.name === 'death1')!.end)
  await stage.settle(() => true, 'a frame with A lying dead')
  await userEvent.click(canvas, { position: pixelOf(canvas, A_X, 10) })
  expect(log.events.filter((e) => e.includes('click'))).toEqual([])
  expect(log.crowd).toEqual([])
})

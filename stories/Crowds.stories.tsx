import type { Meta, StoryObj } from '@storybook/react-vite'
import { useFrame, useThree } from '@react-three/fiber'
import { useEffect, useMemo, useRef, useState } from 'react'
import { Vector3 } from 'three'
import { expect, waitFor } from 'storybook/test'
import soldierAnm from '../assets/ufoai/soldier-male/body.anm?raw'
import {
  MD2Instance,
  MD2Instances,
  MD2Model,
  MD2Quake2Lighting,
  parseAnimationTable,
  useMD2,
  useMD2Crowd,
  useMD2Skin,
  type MD2AnimationDef,
  type MD2Crowd,
  type MD2ModelData,
} from '../src/index'
import { OGRO, OGRO_SKINS, SOLDIER, SOLDIER_SKIN } from './support/assets'
import { useLiveArgs } from './support/live-args'
import { coverage, difference, findStage } from './support/pixels'
import { Overlay } from './support/Stage'

/**
 * Crowds on the GPU: an army of Ogros and UFO:AI soldiers, each crowd one draw call animated in the vertex
 * shader from the file's own frame bytes (`useMD2Crowd`; `<MD2Instances>` is the declarative form).
 * Half of them march in circles; every second a few switch between running, standing and attacking with
 * a 0.3 s crossfade. The FPS counter reads the frame rate; `gpu` off draws the same army with one
 * `<MD2Model>` each (the CPU path) for comparison.
 *
 * Ogro by Magarnigal (skins by Ogro_Fix and Deranged); the soldier from UFO: Alien Invasion (GPL-2+ /
 * CC-BY-SA-3.0, the UFO:AI Team), his animations from its `body.anm`. See `assets/CREDITS.md`.
 */
export interface ArmyArgs {
  /** Characters in all (half of each model). */
  count: number
  /** The GPU path (one draw per model) or one `<MD2Model>` per character. */
  gpu: boolean
  lighting: 'lambert' | 'quake2'
  /** The GPU path's blend: in the vertex shader, or (on real WebGPU) in a compute pass once a frame. */
  decode: 'vertex' | 'compute'
  /**
   * Who works each character's pose out on the GPU path: its shader, from its stored row; the CPU, for those in view
   * each frame; or "auto": the shader, but the CPU where WebGL draws in software (SwiftShader, llvmpipe).
   */
  pose: 'auto' | 'shader' | 'cpu'
}

/** What each kind of character does: moving, standing, fighting. */
const OGRO_ANIMATIONS: readonly string[] = ['run', 'stand', 'attack']
const soldierTable = parseAnimationTable(soldierAnm, 'body.anm')
const SOLDIER_ANIMATIONS = ['walk1', 'stand1', 'shoot_rifle'].map((name) => soldierTable.find((a) => a.name === name)!)
type Animations = readonly (string | MD2AnimationDef)[]
const SPACING = 40

/** Where character `i` of `n` stands (a square around the origin) and whether it marches. */
function placeOf(i: number, n: number): { x: number; z: number; marches: boolean } {
  const side = Math.ceil(Math.sqrt(n))
  return { x: ((i % side) - (side - 1) / 2) * SPACING, z: (Math.floor(i / side) - (side - 1) / 2) * SPACING, marches: i % 2 === 0 }
}

interface PathProps {
  model: MD2ModelData
  skin: string
  animations: Animations
  /** Model units to the army's scale (the Ogro is drawn a little smaller than he is modelled). */
  size: number
  count: number
  offset: number
  total: number
  lighting: ArmyArgs['lighting']
  decode: ArmyArgs['decode']
  pose: ArmyArgs['pose']
  /** The GPU path's crowd, for the status line. */
  crowds: MD2Crowd[]
}

function GpuArmy({ model, skin, animations, size, count, offset, total, lighting, decode, pose, crowds }: PathProps) {
  const map = useMD2Skin(skin)
  const crowd: MD2Crowd = useMD2Crowd(model, { limit: Math.max(count, 1), lighting, map, decode, pose })
  useEffect(() => {
    crowds.push(crowd)
    return () => void crowds.splice(crowds.indexOf(crowd), 1)
  }, [crowds, crowd])
  // One placement, changed and passed for every instance: nothing allocated per frame.
  const placement = useMemo(() => ({ position: new Vector3(), rotation: 0, scale: size }), [size])
  const clock = useRef({ t: 0, next: 0 })
  useEffect(() => {
    for (let i = 0; i < count; i++) crowd.play(i, animations[(i + offset) % 3]!, { speed: 0.8 + ((i * 37) % 40) / 100 })
  }, [crowd, count, offset, animations])
  useFrame((_, delta) => {
    const c = clock.current
    c.t += delta
    for (let i = 0; i < count; i++) {
      const { x, z, marches } = placeOf(i * 2 + offset, total)
      // Marchers walk a small circle, facing along it; the others turn slowly where they stand.
      const angle = c.t * 0.6 + i
      if (marches) placement.position.set(x + Math.cos(angle) * 10, 0, z + Math.sin(angle) * 10)
      else placement.position.set(x, 0, z)
      placement.rotation = marches ? -angle : angle * 0.2
      crowd.setTransform(i, placement)
    }
    if (c.t > c.next) {
      // A few switch animation each second, fading over 0.3 s.
      c.next = c.t + 1
      for (let k = 0; k < Math.ceil(count / 20); k++) {
        const i = Math.floor(Math.random() * count)
        crowd.play(i, animations[Math.floor(Math.random() * 3)]!, { crossfade: 0.3 })
      }
    }
  })
  return <primitive object={crowd} />
}

function CpuArmy({ model, skin, animations, size, count, offset, total, lighting }: PathProps) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => {
        const { x, z } = placeOf(i * 2 + offset, total)
        return (
          <MD2Model
            key={i}
            model={model}
            skin={skin}
            animation={animations[(i + offset) % 3]}
            position={[x, 0, z]}
            scale={size}
            crossfade={0.3}
          >
            {lighting === 'quake2' && <MD2Quake2Lighting />}
          </MD2Model>
        )
      })}
    </>
  )
}

function Fps() {
  const samples = useRef<number[]>([])
  const label = useRef<HTMLSpanElement>(null)
  useFrame((_, delta) => {
    const list = samples.current
    list.push(delta)
    if (list.length > 30) list.shift()
    const mean = list.reduce((a, b) => a + b, 0) / list.length
    if (label.current) label.current.textContent = `${(1 / mean).toFixed(1)} fps · ${(mean * 1000).toFixed(1)} ms`
  })
  return (
    <Overlay>
      <span ref={label}>…</span>
    </Overlay>
  )
}

/** Which of three.js's renderers draws the canvas, and on which backend. */
function rendererName(gl: unknown): string {
  const renderer = gl as { isWebGPURenderer?: boolean; backend?: { isWebGPUBackend?: boolean } }
  if (!renderer.isWebGPURenderer) return 'WebGLRenderer'
  return `WebGPURenderer (${renderer.backend?.isWebGPUBackend ? 'WebGPU' : 'WebGL2 backend'})`
}

/** What draws the army: the path (and where the GPU path blends), and the renderer. Read every frame, as the path is known once drawn. */
function ArmyStatus({ count, gpu, crowds }: { count: number; gpu: boolean; crowds: MD2Crowd[] }) {
  const gl = useThree((state) => state.gl)
  const label = useRef<HTMLSpanElement>(null)
  useFrame(() => {
    const blend = crowds.some((crowd) => crowd.decodedBy === 'compute') ? 'compute pass' : 'vertex shader'
    const posed = crowds.some((crowd) => crowd.drawnFrom === 'posed') ? 'poses by the CPU' : 'poses by the shader'
    const path = gpu
      ? `GPU path (${blend}): 2 draw calls, ${blend === 'compute pass' ? 'poses by the pass' : posed}`
      : `CPU path: ${count} <MD2Model>`
    const text = `${count} characters · ${path} · ${rendererName(gl)}`
    if (label.current && label.current.textContent !== text) label.current.textContent = text
  })
  return (
    <Overlay at={{ x: 0.5, y: 0.95 }} role="status">
      <span ref={label}>…</span>
    </Overlay>
  )
}

function Army(props: ArmyArgs) {
  const { count, gpu, lighting, decode, pose } = useLiveArgs(props)
  const crowds = useMemo<MD2Crowd[]>(() => [], [])
  const ogro = useMD2(OGRO)
  const soldier = useMD2(SOLDIER)
  const half = Math.ceil(count / 2)
  const Path = gpu ? GpuArmy : CpuArmy
  return (
    <>
      <Path
        model={ogro}
        skin={OGRO_SKINS.igdosh!}
        animations={OGRO_ANIMATIONS}
        size={0.7}
        count={half}
        offset={0}
        total={count}
        lighting={lighting}
        decode={decode}
        pose={pose}
        crowds={crowds}
      />
      <Path
        model={soldier}
        skin={SOLDIER_SKIN}
        animations={SOLDIER_ANIMATIONS}
        size={0.8}
        count={count - half}
        offset={1}
        total={count}
        lighting={lighting}
        decode={decode}
        pose={pose}
        crowds={crowds}
      />
      <Fps />
      <ArmyStatus count={count} gpu={gpu} crowds={crowds} />
    </>
  )
}

const meta = {
  title: 'Crowds/Army',
  component: Army,
  args: { count: 1000, gpu: true, lighting: 'lambert', decode: 'vertex', pose: 'auto' },
  argTypes: {
    count: { control: { type: 'range', min: 10, max: 10000, step: 10 } },
    gpu: { control: 'boolean' },
    lighting: { control: 'inline-radio', options: ['lambert', 'quake2'] },
    decode: { control: 'inline-radio', options: ['vertex', 'compute'], if: { arg: 'gpu' } },
    pose: { control: 'inline-radio', options: ['auto', 'shader', 'cpu'], if: { arg: 'gpu' } },
  },
  parameters: { stage: { camera: [0, 900, 1100], target: [0, 0, 0], floor: null } },
} satisfies Meta<typeof Army>

export default meta
type Story = StoryObj<typeof meta>

/** 1,000 characters in two draw calls, mixed animations, crossfading as they march. */
export const Army1000: Story = {
  name: 'Army (GPU)',
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    const first = await stage.expectModel(undefined, 0.02)
    const later = await stage.until((p) => difference(first, p) > 2000, 'the army moving')
    expect(difference(first, later)).toBeGreaterThan(2000)
    // It says which renderer draws it (the toolbar's `renderer`) and which path.
    await expectStatus(canvasElement, 'vertex shader')
  },
}

/** The army with `decode="compute"`: on real WebGPU a compute pass blends the poses; elsewhere the vertex shader does. */
export const ArmyCompute: Story = {
  name: 'Army (GPU, compute pass)',
  args: { decode: 'compute' },
  play: async ({ canvasElement }) => {
    const status = await armyMovingOnGpu(canvasElement)
    await expectStatus(canvasElement, status.endsWith('WebGPURenderer (WebGPU)') ? 'compute pass' : 'vertex shader')
  },
}

/**
 * The army posed by the CPU (`pose="cpu"`): the instances in view worked out each frame, each vertex only decoding;
 * what `"auto"` chooses where WebGL draws in software. The status line says who poses.
 */
export const ArmyPosedOnCpu: Story = {
  name: 'Army (GPU, posed by the CPU)',
  args: { pose: 'cpu' },
  play: async ({ canvasElement }) => {
    const status = await armyMovingOnGpu(canvasElement)
    // Real WebGPU blends in its compute pass only with decode="compute": here the vertex shader, posed by the CPU.
    expect(status).toMatch(/GPU path \(vertex shader\): 2 draw calls, poses by the CPU · /)
  },
}

/** Waits for the army drawn and moving on the GPU path: returns its status line. */
async function armyMovingOnGpu(canvasElement: HTMLElement): Promise<string> {
  const stage = await findStage(canvasElement)
  const first = await stage.expectModel(undefined, 0.02)
  await stage.until((p) => difference(first, p) > 2000, 'the army moving')
  return waitFor(() => readStatus(canvasElement, /GPU path/))
}

function readStatus(canvasElement: HTMLElement, want: RegExp): string {
  const status = canvasElement.querySelector('[role="status"]')?.textContent ?? ''
  if (!want.test(status)) throw new Error(`the status line says "${status}", not ${want}`)
  return status
}

/** The status line names the GPU path's blend and the renderer. */
async function expectStatus(canvasElement: HTMLElement, blend: 'vertex shader' | 'compute pass'): Promise<void> {
  await waitFor(() =>
    readStatus(canvasElement, new RegExp(`GPU path \\(${blend}\\): .* · (WebGLRenderer|WebGPURenderer \\((WebGPU|WebGL2 backend)\\))$`)),
  )
}

/** The same army drawn by the CPU path, for comparison (fewer, so the page stays responsive). */
export const ArmyCpu: Story = {
  name: 'Army (CPU path)',
  args: { count: 200, gpu: false },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel(undefined, 0.02)
  },
}

/** Enemies in the *Click To Kill* story. */
const ENEMIES = 5

/**
 * A row of Ogros, each `<MD2Instance>` with its own `onClick`: a click plays that one's death (once, held on
 * its last frame), as drei's `<Instance onClick>`; the hit is tested against the pose drawn, so a dead one
 * lying on the floor is only hit where it lies. `stopPropagation` keeps the click from anything behind.
 */
function ClickToKill() {
  const ogro = useMD2(OGRO)
  const [dead, setDead] = useState<ReadonlySet<number>>(() => new Set())
  return (
    <>
      <MD2Instances model={ogro} skin={OGRO_SKINS.igdosh!} limit={ENEMIES}>
        {Array.from({ length: ENEMIES }, (_, i) => (
          <MD2Instance
            key={i}
            position={[(i - (ENEMIES - 1) / 2) * 34, 0, 0]}
            animation={dead.has(i) ? 'death1' : 'stand'}
            loop={!dead.has(i)}
            onClick={(event) => {
              event.stopPropagation()
              setDead((before) => new Set(before).add(i))
            }}
          />
        ))}
      </MD2Instances>
      <Overlay at={{ x: 0.5, y: 0.95 }} role="status">
        <span>
          {dead.size} of {ENEMIES} dead: click one
        </span>
      </Overlay>
    </>
  )
}

/** A click at a point of the canvas given in fractions of its size, as the mouse sends it (down, up, click). */
function clickAt(canvas: HTMLCanvasElement, x: number, y: number): void {
  const box = canvas.getBoundingClientRect()
  const at = {
    clientX: box.left + x * box.width,
    clientY: box.top + y * box.height,
    bubbles: true,
    cancelable: true,
    pointerId: 1,
    isPrimary: true,
  }
  canvas.dispatchEvent(new PointerEvent('pointerdown', { ...at, button: 0, buttons: 1 }))
  canvas.dispatchEvent(new PointerEvent('pointerup', { ...at, button: 0, buttons: 0 }))
  canvas.dispatchEvent(new MouseEvent('click', { ...at, button: 0 }))
}

/** Clicking an Ogro (`<MD2Instance onClick>`) plays its death; a click on empty space kills none. */
export const ClickToKillStory: Story = {
  name: 'Click To Kill',
  render: () => <ClickToKill />,
  // The army's controls do not apply here.
  parameters: { stage: { camera: [0, 4, 150], target: [0, 0, 0], floor: null }, controls: { disable: true } },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel(undefined, 0.02)
    // Above the middle Ogro's waist: his chest and head while he stands, nothing once he lies dead.
    const chest = { left: 0.46, right: 0.54, top: 0.3, bottom: 0.48 }
    const standing = await stage.until((p) => coverage(p, chest) > 0.15, 'the middle Ogro standing')
    const status = () => canvasElement.querySelector('[role="status"]')?.textContent ?? ''
    clickAt(stage.canvas, 0.02, 0.05)
    await stage.next(4)
    expect(status()).toMatch(/^0 of 5 dead/)
    clickAt(stage.canvas, 0.5, 0.42)
    await waitFor(() => expect(status()).toMatch(/^1 of 5 dead/))
    const fallen = await stage.until((p) => coverage(p, chest) < 0.05, 'the middle Ogro lying dead')
    expect(difference(standing, fallen, chest)).toBeGreaterThan(100)
    // Where he stood is empty now: a second click there hits no one.
    clickAt(stage.canvas, 0.5, 0.35)
    await stage.next(4)
    expect(status()).toMatch(/^1 of 5 dead/)
  },
}

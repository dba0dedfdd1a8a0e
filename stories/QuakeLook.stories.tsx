import { useFrame } from '@react-three/fiber'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { useMemo, useRef, type RefObject } from 'react'
import { Box3, Box3Helper, type Group } from 'three'
import { splitStory, expectArgsUndone, expectDrawnAndAnimated, expectPictureAgain, playOnModel } from './support/story-kinds'
import {
  MD2BlobShadow,
  MD2Instance,
  MD2Instances,
  MD2Model,
  MD2PoseBounds,
  MD2Quake2Lighting,
  MD2Shell,
  MD2ViewWeapon,
  type MD2ShellProps,
} from '../src/index'
import { OGRO, OGRO_SKINS, OGRO_WEAPON } from './support/assets'
import { setStoryArgs, useLiveArgs } from './support/live-args'
import { difference, findStage } from './support/pixels'
import { Overlay } from './support/Stage'

const RAILGUN = '/models/quake2/ogro/w_railgun.MD2'

interface LookArgs {
  /** The model's yaw in degrees: Quake II lighting steps through 16 rows of its light table, one per 22.5°. */
  yaw: number
  /** The light at the model's feet (one level for all channels). */
  shadelight: number
  minlight: boolean
  fullbright: boolean
  glow: boolean
  animation: string
  playing: boolean
  skin: string
}

/**
 * The same ogro lit by three.js (Lambert, left) and by Quake II's own model lighting (right,
 * `<MD2Quake2Lighting>` inside the model and its weapon): each vertex coloured by the engine's light table
 * for its normal and the model's yaw, times the shadelight. The controls are its props.
 */
function LookScene(props: LookArgs) {
  const { yaw, shadelight, minlight, fullbright, glow, animation, playing, skin } = useLiveArgs(props)
  const rotation: [number, number, number] = [0, (yaw * Math.PI) / 180, 0]
  return (
    <>
      <group position={[-30, 0, 0]}>
        <MD2Model url={OGRO} skin={skin} animation={animation} playing={playing} rotation={rotation}>
          <MD2Model url={OGRO_WEAPON} sync />
        </MD2Model>
      </group>
      <group position={[30, 0, 0]}>
        <MD2Model url={OGRO} skin={skin} animation={animation} playing={playing} rotation={rotation}>
          <MD2Quake2Lighting shadelight={shadelight} minlight={minlight} fullbright={fullbright} glow={glow} />
          <MD2Model url={OGRO_WEAPON} sync>
            <MD2Quake2Lighting shadelight={shadelight} minlight={minlight} fullbright={fullbright} glow={glow} />
          </MD2Model>
        </MD2Model>
      </group>
      <Overlay at={{ x: 0.27, y: 0.92 }}>Lambert (three.js lights)</Overlay>
      <Overlay at={{ x: 0.73, y: 0.92 }}>&lt;MD2Quake2Lighting&gt; (row {Math.trunc((yaw * 16) / 360) & 15} of 16)</Overlay>
    </>
  )
}

const meta = {
  title: 'Quake II look/Lighting',
  component: LookScene,
  parameters: { stage: { camera: [0, 10, 125] } },
  args: {
    yaw: 30,
    shadelight: 1,
    minlight: false,
    fullbright: false,
    glow: false,
    animation: 'stand',
    playing: true,
    skin: OGRO_SKINS.igdosh!,
  },
  argTypes: {
    yaw: { control: { type: 'range', min: -180, max: 180, step: 1 } },
    shadelight: { control: { type: 'range', min: 0, max: 2, step: 0.05 } },
    animation: { control: 'select', options: ['stand', 'run', 'attack', 'taunt', 'crouch_stand'] },
    skin: {
      control: { type: 'select', labels: Object.fromEntries(Object.entries(OGRO_SKINS).map(([k, v]) => [v, k])) },
      options: Object.values(OGRO_SKINS),
    },
  },
} satisfies Meta<typeof LookScene>

export default meta

/** The grey floor blob shadows lie on: a disc of `radius`, or a rectangle of `size`, at height `y`. */
function Floor({ y, z = 0, radius, size }: { y: number; z?: number; radius?: number; size?: [number, number] }) {
  return (
    <mesh rotation-x={-Math.PI / 2} position={[0, y, z]}>
      {size ? <planeGeometry args={size} /> : <circleGeometry args={[radius, 48]} />}
      <meshLambertMaterial color="#7b8794" />
    </mesh>
  )
}
type Story = StoryObj<typeof meta>

/** Side by side; turn the yaw slider to see Quake II's light step through its 16 directions. */
export const LambertAndQuake2: Story = {
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel({ right: 0.5 })
    await stage.expectModel({ left: 0.5 })
  },
}

/** Test only: the shadelight darkens the Quake II model and leaves the Lambert one alone. */
export const ShadelightCheck: Story = {
  tags: ['!dev', '!autodocs'],
  args: { animation: 'stand', yaw: 0, playing: false },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel({ left: 0.5 })
    const before = await stage.settle(() => true, 'the still models')
    setStoryArgs({ shadelight: 0.3 })
    const darker = await stage.settle(
      (picture) => difference(before, picture, { left: 0.5 }) > 500,
      'a lower shadelight to darken the Quake II model',
    )
    // The Lambert model on the left does not change with the shadelight.
    if (difference(before, darker, { right: 0.5 }) !== 0) throw new Error('the shadelight changed the Lambert model')
  },
}

/** Flags: fullbright ignores the shadelight; minlight lifts a dark one; glow pulses. */
export const Flags: Story = {
  args: { shadelight: 0.05, minlight: true, glow: true },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel({ left: 0.5 })
  },
}

/**
 * The view weapon: `<MD2ViewWeapon>` follows the camera, drawn with its depth squeezed into the nearest
 * 30% so it stays in front of the wall right in front of the eye (no view models are bundled, so the
 * ogro's world railgun stands in, placed by `position`). Orbit the camera: the gun stays in hand.
 */
function ViewWeaponScene(props: { hand: 'right' | 'left' | 'center' }) {
  const { hand } = useLiveArgs(props)
  return (
    <>
      <MD2Model url={OGRO} animation="stand" position={[0, 0, -40]} />
      {/* A wall 30 units in front of the camera, which the gun (reaching further) would otherwise clip into. */}
      <mesh position={[10, 2, 72]}>
        <planeGeometry args={[16, 14]} />
        <meshBasicMaterial color="#5b6b7c" />
      </mesh>
      <MD2ViewWeapon url={RAILGUN} hand={hand} animation="attack" position={[-6, -18, 36]} />
    </>
  )
}

const viewWeaponStory: StoryObj<typeof ViewWeaponScene> = {
  render: (args) => <ViewWeaponScene {...args} />,
  args: { hand: 'right' },
  argTypes: { hand: { control: 'inline-radio', options: ['right', 'left', 'center'] } },
  parameters: { stage: { camera: [0, 10, 100], target: [0, 10, 0] } },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    // Hiding the gun (hand "center", as ref_gl does for hand 2) changes the pixels where the wall is: the gun is drawn over it.
    const withGun = await stage.next(3)
    setStoryArgs({ hand: 'center' })
    await stage.until((picture) => difference(withGun, picture, { left: 0.5 }) > 300, 'hiding the gun to uncover the wall')
  },
}
const viewWeaponFaces = splitStory(viewWeaponStory)
export const ViewWeapon: StoryObj<typeof ViewWeaponScene> = viewWeaponFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const ViewWeaponCheck: StoryObj<typeof ViewWeaponScene> = { ...viewWeaponFaces.check, tags: ['!dev', '!autodocs'] }

const SHELLS = [
  ['red', 'invulnerability'],
  ['green', 'green'],
  ['blue', 'quad damage'],
  ['double', 'double damage'],
  ['half', 'half damage'],
  [['red', 'blue'], 'quad + invuln.'],
] as const

/** Power-up shells: a second copy 4 units out along the normals, untextured at alpha 0.3, coloured as the engine combines the flags. */
function ShellsScene({ animation }: { animation: string }) {
  return (
    <>
      {SHELLS.map(([shell, label], i) => (
        <group key={label} position={[(i - 2.5) * 42, 0, 0]}>
          <MD2Model url={OGRO} animation={animation}>
            <MD2Shell color={shell} />
            <MD2Model url={OGRO_WEAPON} sync>
              <MD2Shell color={shell} />
            </MD2Model>
          </MD2Model>
          <Overlay at={{ x: (i + 0.5) / SHELLS.length, y: 0.9 }}>{label}</Overlay>
        </group>
      ))}
    </>
  )
}

export const Shells: StoryObj<typeof ShellsScene> = {
  render: (args) => <ShellsScene {...args} />,
  args: { animation: 'run' },
  argTypes: { animation: { control: 'select', options: ['stand', 'run', 'attack', 'taunt'] } },
  parameters: { stage: { camera: [0, 20, 230], target: [0, 0, 0] } },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel({ right: 0.2 })
    await stage.expectModel({ left: 0.8 })
    await stage.expectAnimated()
  },
}

/** Translucency (RF_TRANSLUCENT) and blob shadows (GL_DrawAliasShadow) on a crowd: the shadows follow the animation. */
function ShadowsScene({ opacity }: { opacity: number }) {
  return (
    <>
      {[-60, -20, 20, 60].map((x, i) => (
        <MD2Model
          key={x}
          url={OGRO}
          animation={['run', 'attack', 'flip', 'wave'][i]}
          position={[x, 0, (i % 2) * -30]}
          rotation-y={i * 0.7}
          opacity={i === 3 ? opacity : 1}
        >
          <MD2BlobShadow floor={-24} />
        </MD2Model>
      ))}
      <Floor y={-24.5} radius={110} />
    </>
  )
}

export const ShadowsAndTranslucency: StoryObj<typeof ShadowsScene> = {
  render: (args) => <ShadowsScene {...args} />,
  args: { opacity: 0.5 },
  argTypes: { opacity: { control: { type: 'range', min: 0, max: 1, step: 0.05 } } },
  parameters: { stage: { camera: [0, 60, 170], target: [0, -10, 0], floor: null } },
  play: expectDrawnAndAnimated,
}

interface ShellArgs {
  /** `<MD2Shell color>`: which power-up shells, coloured as the engine combines them. */
  color: MD2ShellProps['color']
  /** `<MD2Shell pickable>`: whether rays (pointer events) may hit the shell. */
  pickable: boolean
  animation: string
  playing: boolean
}

const SHELL_COLORS: Record<string, MD2ShellProps['color']> = {
  red: 'red',
  green: 'green',
  blue: 'blue',
  double: 'double',
  half: 'half',
  'quad + invuln.': ['blue', 'red'],
  none: [],
}

/** `<MD2Shell>` on one ogro and on its weapon (`sync`): a second copy of the pose, 4 units out along the normals. */
function ShellScene(props: ShellArgs) {
  const { color, pickable, animation, playing } = useLiveArgs(props)
  return (
    <MD2Model url={OGRO} animation={animation} playing={playing}>
      <MD2Shell color={color} pickable={pickable} />
      <MD2Model url={OGRO_WEAPON} sync>
        <MD2Shell color={color} pickable={pickable} />
      </MD2Model>
    </MD2Model>
  )
}

const shellStory: StoryObj<typeof ShellScene> = {
  render: (args) => <ShellScene {...args} />,
  args: { color: 'blue', pickable: false, animation: 'stand', playing: false },
  argTypes: {
    color: { control: 'select', options: Object.keys(SHELL_COLORS), mapping: SHELL_COLORS },
    animation: { control: 'select', options: ['stand', 'run', 'attack', 'taunt'] },
  },
  parameters: { stage: { camera: [0, 10, 90] } },
  play: playOnModel(async (stage) => {
    const blue = await stage.settle(() => true, 'the blue shell')
    // Another colour recolours the whole shell; no shell uncovers the skin; blue again is the first picture.
    setStoryArgs({ color: 'red' })
    const red = await stage.settleDrawn((p) => difference(blue, p) > 1000, 'the shell to turn red')
    setStoryArgs({ color: [] })
    await stage.settleDrawn((p) => difference(red, p) > 1000 && difference(blue, p) > 1000, 'the shell to come off')
    setStoryArgs({ color: 'blue' })
    await expectPictureAgain(stage, red, blue, 'the blue shell again')
  }),
}
const shellFaces = splitStory(shellStory, { playing: true })
/** `<MD2Shell>`: pick its colour in the controls. */
export const Shell: StoryObj<typeof ShellScene> = shellFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const ShellCheck: StoryObj<typeof ShellScene> = { ...shellFaces.check, tags: ['!dev', '!autodocs'] }

interface BlobShadowArgs {
  /** Whether the ogro has an `<MD2BlobShadow>`. */
  shadow: boolean
  /** `<MD2BlobShadow floor>`: the world height the shadow lies on (the grey floor follows it). */
  floor: number
  /** `<MD2BlobShadow pickable>`: whether rays (pointer events) may hit the shadow. */
  pickable: boolean
  /** The model's yaw in degrees: the shadow falls along Quake II's shade vector for it. */
  yaw: number
  animation: string
  playing: boolean
}

/** `<MD2BlobShadow>` under one ogro: the posed model flattened onto the floor along the shade vector of its yaw. */
function BlobShadowScene(props: BlobShadowArgs) {
  const { shadow, floor, pickable, yaw, animation, playing } = useLiveArgs(props)
  return (
    <>
      <MD2Model url={OGRO} animation={animation} playing={playing} rotation-y={(yaw * Math.PI) / 180}>
        {shadow && <MD2BlobShadow floor={floor} pickable={pickable} />}
      </MD2Model>
      <Floor y={floor - 0.5} radius={60} />
    </>
  )
}

const blobShadowStory: StoryObj<typeof BlobShadowScene> = {
  render: (args) => <BlobShadowScene {...args} />,
  args: { shadow: true, floor: -24, pickable: false, yaw: 30, animation: 'stand', playing: false },
  argTypes: {
    floor: { control: { type: 'range', min: -40, max: -24, step: 1 } },
    yaw: { control: { type: 'range', min: -180, max: 180, step: 1 } },
    animation: { control: 'select', options: ['stand', 'run', 'attack', 'flip', 'wave'] },
  },
  parameters: { stage: { camera: [0, 50, 110], target: [0, -10, 0], floor: null } },
  play: playOnModel(async (stage) => {
    const shadowed = await stage.settle(() => true, 'the ogro and its shadow')
    // The shadow darkens the floor: taking it away changes those pixels; another yaw casts it elsewhere.
    await expectArgsUndone(stage, shadowed, { args: { shadow: false }, back: { shadow: true }, least: 500, what: 'the shadow to go' })
    setStoryArgs({ yaw: 120 })
    await stage.settleDrawn((p) => difference(shadowed, p) > 500, 'the shadow to turn with the model')
  }),
}
const blobShadowFaces = splitStory(blobShadowStory, { playing: true })
/** `<MD2BlobShadow>`: move the floor and turn the model in the controls. */
export const BlobShadow: StoryObj<typeof BlobShadowScene> = blobShadowFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const BlobShadowCheck: StoryObj<typeof BlobShadowScene> = { ...blobShadowFaces.check, tags: ['!dev', '!autodocs'] }

/** The box `Box3.setFromObject` finds for `target` (from its geometry's `boundingBox`), drawn every frame. */
function BoxOf({ target }: { target: RefObject<Group | null> }) {
  const box = useMemo(() => new Box3(), [])
  const helper = useMemo(() => new Box3Helper(box, '#ffd400'), [box])
  useFrame(() => {
    if (target.current) box.setFromObject(target.current)
  })
  return <primitive object={helper} />
}

interface PoseBoundsArgs {
  /** Whether the ogro has an `<MD2PoseBounds>`: the box of the pose shown, else the box of every frame. */
  poseBounds: boolean
  /** The frame shown (the last, 197, lies on the ground). */
  frame: number
}

/**
 * `<MD2PoseBounds>`: the yellow box is what `Box3.setFromObject` finds for the model, from its geometry's
 * `boundingBox`. With it, the box of the pose drawn (a lying ogro in a lying ogro's box); without, the box
 * of every frame. It takes no props.
 */
function PoseBoundsScene(props: PoseBoundsArgs) {
  const { poseBounds, frame } = useLiveArgs(props)
  const model = useRef<Group>(null)
  return (
    <>
      <MD2Model ref={model} url={OGRO} frame={frame}>
        {poseBounds && <MD2PoseBounds />}
      </MD2Model>
      <BoxOf target={model} />
    </>
  )
}

const poseBoundsStory: StoryObj<typeof PoseBoundsScene> = {
  render: (args) => <PoseBoundsScene {...args} />,
  args: { poseBounds: true, frame: 197 },
  argTypes: { frame: { control: { type: 'range', min: 0, max: 197, step: 1 } } },
  parameters: { stage: { camera: [40, 40, 110], target: [0, -5, 0] } },
  play: playOnModel(async (stage) => {
    const posed = await stage.settle(() => true, 'the lying ogro in its box')
    // Without it the box is every frame's, standing height included: the yellow lines move.
    await expectArgsUndone(stage, posed, {
      args: { poseBounds: false },
      back: { poseBounds: true },
      least: 300,
      what: 'the all-frames box',
    })
  }),
}
const poseBoundsFaces = splitStory(poseBoundsStory)
/** `<MD2PoseBounds>`: switch it off and scrub the frames in the controls. */
export const PoseBounds: StoryObj<typeof PoseBoundsScene> = poseBoundsFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const PoseBoundsCheck: StoryObj<typeof PoseBoundsScene> = { ...poseBoundsFaces.check, tags: ['!dev', '!autodocs'] }

interface CrowdLooksArgs {
  /** Every second ogro in a shell (each kind in turn). */
  shells: boolean
  /** Every ogro casts a blob shadow. */
  shadows: boolean
  lighting: 'lambert' | 'quake2'
  playing: boolean
}

/**
 * Shells and blob shadows on the GPU crowd: twelve armed ogros in one draw (and one for their weapons),
 * each with its own shell or none (an `<MD2Shell>` inside its `<MD2Instance>`) and its blob shadow (`<MD2BlobShadow>`).
 * All the shells are one more draw, all the shadows another; the weapons wear their bearers' shells, shadows and light.
 */
function CrowdLooksScene(props: CrowdLooksArgs) {
  const { shells, shadows, lighting, playing } = useLiveArgs(props)
  return (
    <>
      <MD2Instances url={OGRO} limit={12}>
        {lighting === 'quake2' && <MD2Quake2Lighting />}
        {Array.from({ length: 12 }, (_, i) => (
          <MD2Instance
            key={i}
            position={[((i % 6) - 2.5) * 42, 0, Math.floor(i / 6) * -60]}
            rotation-y={i * 0.5}
            animation={['run', 'attack', 'stand', 'wave'][i % 4]}
            playing={playing}
          >
            <MD2Shell color={shells && i % 2 === 0 ? SHELLS[(i / 2) % SHELLS.length]![0] : []} />
            {shadows && <MD2BlobShadow floor={-24} />}
          </MD2Instance>
        ))}
        <MD2Instances url={OGRO_WEAPON} sync />
      </MD2Instances>
      <Floor y={-24.5} z={-30} size={[300, 160]} />
    </>
  )
}

const crowdLooksStory: StoryObj<typeof CrowdLooksScene> = {
  render: (args) => <CrowdLooksScene {...args} />,
  args: { shells: true, shadows: true, lighting: 'quake2', playing: false },
  argTypes: { lighting: { control: 'inline-radio', options: ['lambert', 'quake2'] } },
  parameters: { stage: { camera: [0, 110, 200], target: [0, -10, -30], floor: null } },
  play: playOnModel(async (stage) => {
    const first = await stage.settle(() => true, 'the crowd to settle')
    // Each look is drawn: taking the shells off, then the shadows, changes hundreds of pixels each time.
    setStoryArgs({ shells: false })
    const unshelled = await stage.settle((p) => difference(first, p) > 1000, 'the shells to come off')
    setStoryArgs({ shadows: false })
    const plain = await stage.settle((p) => difference(unshelled, p) > 500, 'the shadows to go')
    setStoryArgs({ shells: true, shadows: true })
    await expectPictureAgain(stage, plain, first, 'the shells and shadows to come back')
  }),
}
const crowdLooksFaces = splitStory(crowdLooksStory, { playing: true })
export const CrowdShellsAndShadows: StoryObj<typeof CrowdLooksScene> = crowdLooksFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const CrowdShellsAndShadowsCheck: StoryObj<typeof CrowdLooksScene> = { ...crowdLooksFaces.check, tags: ['!dev', '!autodocs'] }

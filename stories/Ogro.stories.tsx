import type { Meta, StoryObj } from '@storybook/react-vite'
import { scrubPlay, splitStory, expectDrawnAndAnimated } from './support/story-kinds'
import { Suspense, useState } from 'react'
import { useThree } from '@react-three/fiber'
import { Hud, OrthographicCamera } from '@react-three/drei'
import { expect, fn, waitFor } from 'storybook/test'
import ogroInfo, { animationNames, folderFiles, frameCount } from '../assets/quake2/ogro/tris.MD2?md2-animations'
import { MD2Model, MD2Player, useMD2, useMD2Skin, usePlayerIcon, type MD2ModelProps, type MD2PlayerProps } from '../src/index'
import { OGRO, OGRO_SKINS, OGRO_WEAPON, OGRO_WEAPON_SKIN } from './support/assets'
import { modelArgTypes, PLAYBACK_ARGS } from './support/controls'
import { useLiveArgs, setStoryArgs } from './support/live-args'
import { LiveMD2 } from './support/LiveMD2'
import { difference, findStage } from './support/pixels'
import { Overlay } from './support/Stage'

/**
 * Ogro by Magarnigal (skins by Ogro_Fix and Deranged): a 199-frame Quake II player model wearing his
 * original 8-bit PCX skins. Its animations come from its own frame names plus the Quake II player
 * table, read from the file by `?md2-animations` at build time.
 */
const meta = {
  title: 'Quake II/Ogro',
  component: LiveMD2,
  args: {
    url: OGRO,
    skin: OGRO_SKINS.igdosh,
    animation: 'run',
    ...PLAYBACK_ARGS,
  },
  argTypes: modelArgTypes({ animationNames, frameCount }, OGRO_SKINS),
  // Shared check: the model is drawn and it moves.
  play: expectDrawnAndAnimated,
} satisfies Meta<typeof LiveMD2>

export default meta
type Story = StoryObj<typeof meta>

const [firstAnimation] = ogroInfo
const otherAnimation = ogroInfo.find((animation) => animation.name === 'crouch_stand') ?? ogroInfo[ogroInfo.length - 1]!

/** Every animation of the file in the select; fps, speed, scale, playing, loop, interpolation, wireframe. */
export const Playing: Story = {}

/** `playing={false}` holds the pose; choosing another animation shows its first frame. */
const pausedStory: Story = {
  args: { playing: false, animation: firstAnimation!.name },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    const before = await stage.expectStill()
    setStoryArgs({ animation: otherAnimation.name })
    const other = await stage.settle((p) => difference(before, p) > 200, `animation "${otherAnimation.name}" to show`)
    await stage.expectStill()
    setStoryArgs({ animation: firstAnimation!.name })
    const back = await stage.settle((p) => difference(other, p) > 200, `animation "${firstAnimation!.name}" to show again`)
    await expect(difference(before, back), 'pixels differing from the first picture of the same pose').toBe(0)
  },
}
const pausedStoryFaces = splitStory(pausedStory)
export const Paused: Story = pausedStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const PausedCheck: Story = { ...pausedStoryFaces.check, tags: ['!dev', '!autodocs'] }

/** The skin switcher over Ogro's original PCX skins (the 13 his file names, then three it does not). */
const skinsStory: Story = {
  args: { playing: false, animation: 'stand', skin: OGRO_SKINS.igdosh },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    const igdosh = await stage.settle(() => true, 'the first skin to settle')
    setStoryArgs({ skin: OGRO_SKINS.khorne })
    const khorne = await stage.settleDrawn((p) => difference(igdosh, p) > 200, 'the khorne skin to show')
    setStoryArgs({ skin: OGRO_SKINS.igdosh })
    const again = await stage.settleDrawn((p) => difference(khorne, p) > 200, 'the igdosh skin to show again')
    await expect(difference(igdosh, again), 'pixels differing from the first picture with the same skin').toBe(0)
  },
}
const skinsStoryFaces = splitStory(skinsStory)
export const Skins: Story = skinsStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const SkinsCheck: Story = { ...skinsStoryFaces.check, tags: ['!dev', '!autodocs'] }

/** `frame` shows one still frame: scrub through all of the file's frames. */
const frameScrubberStory: Story = {
  args: { frame: 0 },
  play: scrubPlay(120, 'a run frame'),
}
const frameScrubberStoryFaces = splitStory(frameScrubberStory)
export const FrameScrubber: Story = frameScrubberStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const FrameScrubberCheck: Story = { ...frameScrubberStoryFaces.check, tags: ['!dev', '!autodocs'] }

export const Wireframe: Story = {
  args: { wireframe: true, color: '#7fdbff', skin: null },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel(undefined, 0.002)
    await stage.expectAnimated()
  },
}

function WithWeaponScene(props: MD2ModelProps) {
  const args = useLiveArgs(props)
  return (
    <MD2Model {...args}>
      {/* `sync`: the parent's frames, interpolation and crossfade, whatever the weapon's own props. */}
      {/* No skin of its own: weapon.md2 names players/ogro/weapon.pcx, found beside it. */}
      <MD2Model url={OGRO_WEAPON} sync />
    </MD2Model>
  )
}

/** Body and `weapon.md2`, synced: the weapon shows the body's frames; it wears the `weapon.pcx` its file names. */
export const WithWeapon: Story = {
  args: { animation: 'attack', crossfade: 0.2 },
  render: (args) => <WithWeaponScene {...args} />,
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    await stage.expectAnimated()
    // The weapon's default skin: the name written in weapon.md2, resolved next to it.
    const [weaponSkin] = (await useMD2.preload(OGRO_WEAPON)).skins
    await expect(weaponSkin).toBe('players/ogro/weapon.pcx')
    await expect((await useMD2Skin.resolve(OGRO_WEAPON, weaponSkin!)).url).toBe(OGRO_WEAPON_SKIN)
  },
}

const OGRO_FOLDER = '/models/quake2/ogro/'
/** The weapons in the folder (`w_*.md2`, any case), and `grapple`, which it lacks: Quake II then shows `weapon.md2`. */
const OGRO_WEAPONS = [...folderFiles.filter((file) => /^w_.*\.md2$/i.test(file)).map((file) => file.slice(2, -4)), 'grapple']
const OGRO_SKIN_NAMES = Object.keys(OGRO_SKINS)

type ArmedArgs = Omit<MD2PlayerProps, 'path'>

/** The skin's HUD icon (`<skin>_i.pcx`), in the top left corner, as the scoreboard shows it. */
function SkinIcon({ skin }: { skin: string }) {
  const icon = usePlayerIcon(OGRO_FOLDER, skin, folderFiles)
  const viewport = useThree((state) => state.size)
  return (
    <Hud>
      <OrthographicCamera makeDefault position={[0, 0, 10]} />
      <mesh position={[-viewport.width / 2 + 44, viewport.height / 2 - 44, 0]} scale={64}>
        <planeGeometry />
        <meshBasicMaterial map={icon} />
      </mesh>
    </Hud>
  )
}

function ArmedScene(props: ArmedArgs) {
  // The file's args give every story the Ogro's `url`; a player is found by its folder (`path`) instead.
  const { skin = 'igdosh', weapon, url: _url, ...args } = useLiveArgs(props as ArmedArgs & { url?: string })
  return (
    <>
      <MD2Player path={OGRO_FOLDER} files={folderFiles} skin={skin} weapon={weapon} {...args} />
      <Suspense fallback={null}>
        <SkinIcon skin={skin} />
      </Suspense>
    </>
  )
}

/**
 * `<MD2Player>`: the body, a skin by name, and every weapon in the folder (`w_<weapon>.md2`, shipped as
 * `w_railgun.MD2` and `w_shotgun.md2` alike), in step through every animation; `grapple`, which the folder
 * lacks, falls back to `weapon.md2` as Quake II does. The skin's HUD icon is in the corner.
 */
export const Armed: StoryObj<ArmedArgs> = {
  args: { skin: 'igdosh', weapon: 'railgun', animation: 'run', crossfade: 0.15, playing: true, loop: true, interpolate: true, speed: 1 },
  argTypes: {
    ...modelArgTypes({ animationNames, frameCount }),
    skin: { control: 'select', options: OGRO_SKIN_NAMES },
    weapon: { control: 'select', options: OGRO_WEAPONS },
  },
  render: (args) => <ArmedScene {...args} />,
}

const armedCheck: StoryObj<ArmedArgs> = {
  ...Armed,
  args: { ...Armed.args, frame: 40, animation: undefined },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    // The weapon, its skin and the icon arrive after the body: wait for them before calling the scene still.
    await Promise.all([
      useMD2.preload(`${OGRO_FOLDER}w_railgun.MD2`),
      useMD2Skin.preload(`${OGRO_FOLDER}g_rail.pcx`),
      useMD2Skin.preload(`${OGRO_FOLDER}igdosh_i.pcx`),
    ])
    await stage.settleDrawn(() => true, 'the armed ogro to settle')
    const railgun = await stage.expectStill()
    setStoryArgs({ weapon: 'bfg' })
    await stage.settleDrawn((pixels) => difference(railgun, pixels) > 200, 'the BFG to replace the railgun')
    setStoryArgs({ weapon: 'grapple' })
    const fallback = await stage.settleDrawn((pixels) => difference(railgun, pixels) > 200, 'weapon.md2 to stand in for the grapple')
    setStoryArgs({ weapon: 'railgun' })
    await stage.settleDrawn(
      (pixels) => difference(fallback, pixels) > 200 && difference(railgun, pixels) === 0,
      'the railgun again, as before',
    )
  },
}
/** Test only: switches weapons and checks each is drawn, the missing one by weapon.md2. */
export const ArmedCheck: StoryObj<ArmedArgs> = { ...splitStory(armedCheck).check, tags: ['!dev', '!autodocs'] }

function InterpolationScene(props: MD2ModelProps) {
  const args = useLiveArgs(props)
  return (
    <>
      <Overlay at={{ x: 0.3, y: 0.1 }}>interpolate</Overlay>
      <Overlay at={{ x: 0.7, y: 0.1 }}>{'interpolate={false}'}</Overlay>
      <group position={[-32, 0, 0]}>
        <MD2Model {...args} interpolate />
      </group>
      <group position={[32, 0, 0]}>
        <MD2Model {...args} interpolate={false} />
      </group>
    </>
  )
}

const LEFT = { right: 0.5 }
const RIGHT = { left: 0.5 }

/** Interpolation on (left) and off (right, snapping from keyframe to keyframe like the 10 Hz server). */
const interpolationStory: Story = {
  args: { animation: 'run' },
  parameters: { stage: { camera: [0, 12, 120] } },
  render: (args) => <InterpolationScene {...args} />,
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel(LEFT)
    await stage.expectModel(RIGHT)
    await stage.expectAnimated(LEFT)
    await stage.expectAnimated(RIGHT)
    // At 2 keyframes a second the snapping model holds each keyframe for 500 ms while the
    // interpolated one keeps moving: find a drawn frame where the left changed and the right did not.
    setStoryArgs({ fps: 2 })
    let previous = await stage.next()
    await stage.until((picture) => {
      const left = difference(previous, picture, LEFT)
      const right = difference(previous, picture, RIGHT)
      previous = picture
      return left > 20 && right === 0
    }, 'a frame where only the interpolated model moved')
  },
}
const interpolationStoryFaces = splitStory(interpolationStory)
export const Interpolation: Story = interpolationStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const InterpolationCheck: Story = { ...interpolationStoryFaces.check, tags: ['!dev', '!autodocs'] }

function PlayOnceScene(props: MD2ModelProps) {
  const args = useLiveArgs(props)
  const [ended, setEnded] = useState<string[]>([])
  return (
    <>
      <MD2Model
        {...args}
        onAnimationEnd={(animation) => {
          args.onAnimationEnd?.(animation)
          setEnded((list) => [...list, animation.name])
        }}
      />
      <Overlay>{ended.length === 0 ? `playing "${String(args.animation)}" once…` : `onAnimationEnd: ${ended.join(', ')}`}</Overlay>
    </>
  )
}

/** `loop={false}`: plays once, stops on the last frame and calls `onAnimationEnd` once. */
export const PlayOnce: Story = {
  args: { animation: 'death1', loop: false, onAnimationEnd: fn() },
  render: (args) => <PlayOnceScene {...args} />,
  play: async ({ canvasElement, args, canvas }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    await canvas.findByText('onAnimationEnd: death1', {}, { timeout: 60_000 })
    await waitFor(() => expect(args.onAnimationEnd).toHaveBeenCalledTimes(1))
    await expect(args.onAnimationEnd).toHaveBeenCalledWith(expect.objectContaining({ name: 'death1' }))
    await stage.expectStill()
    await expect(args.onAnimationEnd).toHaveBeenCalledTimes(1)
  },
}

const CROWD_ANIMATIONS = [
  'stand',
  'run',
  'attack',
  'pain1',
  'jump',
  'flip',
  'salute',
  'taunt',
  'wave',
  'point',
  'crouch_stand',
  'crouch_walk',
]

function CrowdScene({ count = 25, ...props }: MD2ModelProps & { count?: number }) {
  const args = useLiveArgs(props)
  // One fetch, one parse: every instance shares the parsed model (and its own buffers).
  const model = useMD2(OGRO)
  // Living animations and skins only: the gib skin and the death and 'boom' frames read as
  // scattered limbs in a crowd.
  const skins = Object.entries(OGRO_SKINS)
    .filter(([name]) => name !== 'gib')
    .map(([, url]) => url)
  const columns = Math.ceil(Math.sqrt(count))
  const spacing = 48
  const fit = Math.min(1, 120 / (columns * spacing))
  return (
    <group scale={fit}>
      {Array.from({ length: count }, (_, i) => {
        const column = i % columns
        const row = Math.floor(i / columns)
        return (
          <MD2Model
            key={i}
            {...args}
            model={model}
            // Chosen in the Controls panel: every instance; else each its own.
            animation={args.animation ?? CROWD_ANIMATIONS[i % CROWD_ANIMATIONS.length]}
            skin={args.skin ?? skins[i % skins.length]}
            position={[(column - (columns - 1) / 2) * spacing, 0, -row * spacing + ((columns - 1) / 2) * spacing]}
          />
        )
      })}
    </group>
  )
}

/** N instances of one cached model, each with its own animation, skin and buffers. */
export const Crowd: StoryObj<MD2ModelProps & { count: number }> = {
  // No animation or skin: each instance has its own until one is chosen in the Controls panel.
  args: { count: 25, animation: undefined, skin: undefined },
  argTypes: { count: { control: { type: 'range', min: 1, max: 200, step: 1 } } },
  parameters: { stage: { camera: [0, 75, 165], target: [0, 0, 0] } },
  render: (args) => <CrowdScene {...args} />,
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel(undefined, 0.02)
    await stage.expectAnimated()
  },
}

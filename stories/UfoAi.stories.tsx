import type { Meta, StoryObj } from '@storybook/react-vite'
import { scrubPlay, splitStory, expectDrawnAndAnimated } from './support/story-kinds'
import soldierAnm from '../assets/ufoai/soldier-male/body.anm?raw'
import { frameCount as soldierFrames } from '../assets/ufoai/soldier-male/body.md2?md2-animations'
import bloodspiderAnm from '../assets/ufoai/bloodspider/bloodspider.anm?raw'
import { frameCount as bloodspiderFrames } from '../assets/ufoai/bloodspider/bloodspider.md2?md2-animations'
import { animationNames as wcAnimations, frameCount as wcFrames } from '../assets/ufoai/wc/wc.md2?md2-animations'
import { useMemo } from 'react'
import {
  MD2Attach,
  MD2Model,
  createPose,
  findTag,
  parseAnimationTable,
  tagTransform,
  useMD2Tags,
  type MD2AnimationDef,
  type MD2ModelProps,
} from '../src/index'
import { useLiveArgs } from './support/live-args'
import {
  BLOODSPIDER,
  BLOODSPIDER_SKINS,
  SOLDIER,
  SOLDIER_HEAD,
  SOLDIER_HEAD_SKIN,
  SOLDIER_SKIN,
  SOLDIER_TAGS,
  WC,
  WC_SKINS,
} from './support/assets'
import { createRifle } from './support/rifle'
import { modelArgTypes, PLAYBACK_ARGS } from './support/controls'
import { LiveMD2 } from './support/LiveMD2'
import { findStage } from './support/pixels'

/**
 * Models from UFO: Alien Invasion (GPL-2+ / CC-BY-SA-3.0, the UFO:AI Team). Their frame names
 * say nothing ("FRAME 000......"): the animations come from the `.anm` tables shipped with them,
 * imported as text and read by `parseAnimationTable`.
 */
const soldierTable = parseAnimationTable(soldierAnm, 'body.anm')
const bloodspiderTable = parseAnimationTable(bloodspiderAnm, 'bloodspider.anm')

/** The names of a table's entries that fit the model's frames (the select's options). */
function usable(table: readonly MD2AnimationDef[], frames: number): string[] {
  return [...new Set(table.filter((def) => def.start >= 0 && def.end < frames && def.start <= def.end).map((def) => def.name))]
}

/** The playback controls every story here offers (after its model's own args; fps comes from each .anm entry). */
const { fps: _quake2Fps, ...PLAYBACK } = PLAYBACK_ARGS

const meta = {
  title: 'UFO:AI',
  component: LiveMD2,
  play: expectDrawnAndAnimated,
} satisfies Meta<typeof LiveMD2>

export default meta
type Story = StoryObj<typeof meta>

/**
 * The male soldier's body alone: 1,007 frames (past Quake II's 512) with the animations of body.anm. His
 * head is a separate model, attached in the story below.
 */
export const Soldier: Story = {
  args: { url: SOLDIER, skin: SOLDIER_SKIN, animationTable: soldierTable, animation: 'walk1', position: [0, 10, 0], ...PLAYBACK },
  argTypes: modelArgTypes({ animationNames: usable(soldierTable, soldierFrames), frameCount: soldierFrames }),
}

/** Scrub through all 1,007 frames of the soldier. */
const soldierFramesStory: Story = {
  args: { ...Soldier.args, frame: 0 },
  argTypes: Soldier.argTypes,
  play: scrubPlay(856, 'dead1'),
}
const soldierFramesStoryFaces = splitStory(soldierFramesStory)
export const SoldierFrames: Story = soldierFramesStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const SoldierFramesCheck: Story = { ...soldierFramesStoryFaces.check, tags: ['!dev', '!autodocs'] }

/** 96 frames, a 1023×1023 skin, animations from bloodspider.anm. */
export const Bloodspider: Story = {
  args: {
    url: BLOODSPIDER,
    skin: BLOODSPIDER_SKINS.bloodspider,
    animationTable: bloodspiderTable,
    animation: 'walk0',
    position: [0, 38, 0],
    ...PLAYBACK,
    scale: 1.6,
  },
  argTypes: modelArgTypes(
    { animationNames: usable(bloodspiderTable, bloodspiderFrames), frameCount: bloodspiderFrames },
    BLOODSPIDER_SKINS,
  ),
}

/** Two one-frame animations named in the file: `wc` and `flush`. */
export const Wc: Story = {
  args: { url: WC, skin: WC_SKINS.wc, animation: 'wc', position: [0, -28, 0], ...PLAYBACK },
  argTypes: modelArgTypes({ animationNames: wcAnimations, frameCount: wcFrames }, WC_SKINS),
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    // One-frame animations hold still (`flush` moves only a few vertices out of this view).
    await stage.expectStill()
  },
}

function ArmedSoldierScene({ showHead = true, showRifle = true, ...props }: SoldierArgs) {
  const args = useLiveArgs(props)
  const tags = useMD2Tags(SOLDIER_TAGS)
  // tag_floor marks where the feet stand (32 units under the origin in every frame): put it on the stage's floor.
  const feet = tagTransform(tags, findTag(tags, 'tag_floor'), createPose(0))[11]!
  const rifle = useMemo(() => createRifle(), [])
  return (
    <MD2Model {...args} tags={tags} position={[0, STAGE_FLOOR - feet * (typeof args.scale === 'number' ? args.scale : 1), 0]}>
      {showHead && (
        <MD2Attach tag="tag_head">
          <MD2Model url={SOLDIER_HEAD} skin={SOLDIER_HEAD_SKIN} />
        </MD2Attach>
      )}
      {showRifle && (
        <MD2Attach tag="tag_rweapon">
          <MD2Model model={rifle} skin={null} color="#3a3f44" />
        </MD2Attach>
      )}
    </MD2Model>
  )
}

type SoldierArgs = MD2ModelProps & { showHead?: boolean; showRifle?: boolean }

/** The stage's floor height (Stage's default). */
const STAGE_FLOOR = -24

/**
 * The soldier as UFO:AI draws him: body.md2 animated from body.anm, head01.md2 on `tag_head` and a rifle
 * in `tag_rweapon` (a stand-in built with `createMD2`: no UFO:AI weapon is bundled), each placed every
 * frame by body.tag, through interpolation and crossfades; feet on the floor by `tag_floor`.
 */
export const ArmedSoldier: StoryObj<SoldierArgs> = {
  args: {
    url: SOLDIER,
    skin: SOLDIER_SKIN,
    animationTable: soldierTable,
    animation: 'walk1',
    crossfade: 0.25,
    showHead: true,
    showRifle: true,
    ...PLAYBACK,
  },
  argTypes: modelArgTypes({ animationNames: usable(soldierTable, soldierFrames), frameCount: soldierFrames }),
  render: (args) => <ArmedSoldierScene {...args} />,
}

import type { Meta, StoryObj } from '@storybook/react-vite'
import { expectDrawnAndAnimated, splitStory } from './support/story-kinds'
import { animationNames, frameCount } from '../assets/quake2/ratamahatta/tris.md2?md2-animations'
import { expect } from 'storybook/test'
import { MD2Model, useMD2, useMD2Skin, type MD2ModelProps } from '../src/index'
import { RATAMAHATTA, RATAMAHATTA_SKINS, RATAMAHATTA_WEAPON, RATAMAHATTA_WEAPON_SKIN } from './support/assets'
import { modelArgTypes, PLAYBACK_ARGS } from './support/controls'
import { useLiveArgs, setStoryArgs } from './support/live-args'
import { difference, findStage } from './support/pixels'

/**
 * Ratamahatta by Brian "EvilBastard" Collins: a 198-frame Quake II player model whose file names no
 * skin, so his original PCX skins are given by URL. His weapon's file names `weapon.pcx`, found
 * beside it with no `skin` prop.
 */
function RatamahattaScene({ weapon = true, ...props }: MD2ModelProps & { weapon?: boolean }) {
  const args = useLiveArgs(props)
  return (
    <group>
      <MD2Model {...args} />
      {weapon && <MD2Model {...args} url={RATAMAHATTA_WEAPON} skin={undefined} />}
    </group>
  )
}

const meta = {
  title: 'Quake II/Ratamahatta',
  component: RatamahattaScene,
  args: {
    url: RATAMAHATTA,
    skin: RATAMAHATTA_SKINS.ratamahatta,
    animation: 'stand',
    weapon: true,
    ...PLAYBACK_ARGS,
  },
  argTypes: { ...modelArgTypes({ animationNames, frameCount }, RATAMAHATTA_SKINS), weapon: { control: 'boolean' } },
  render: (args) => <RatamahattaScene {...args} />,
} satisfies Meta<typeof RatamahattaScene>

export default meta
type Story = StoryObj<typeof meta>

/** Standing with his weapon; every animation of the file in the select. */
export const Playing: Story = {
  play: async (context) => {
    await expectDrawnAndAnimated(context)
    // The weapon's default skin: "players/Ratamahatta/weapon.pcx" as written, found as weapon.pcx beside it.
    const [weaponSkin] = (await useMD2.preload(RATAMAHATTA_WEAPON)).skins
    await expect((await useMD2Skin.resolve(RATAMAHATTA_WEAPON, weaponSkin!)).url).toBe(RATAMAHATTA_WEAPON_SKIN)
  },
}

/** Paused on a frame, switching skins changes the picture. */
const skinsStory: Story = {
  args: { playing: false, animation: 'taunt' },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    const first = await stage.settle(() => true, 'the first skin to settle')
    setStoryArgs({ skin: RATAMAHATTA_SKINS.gearwhore })
    await stage.settleDrawn((p) => difference(first, p) > 200, 'the gearwhore skin to show')
  },
}
const skinsStoryFaces = splitStory(skinsStory)
export const Skins: Story = skinsStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const SkinsCheck: Story = { ...skinsStoryFaces.check, tags: ['!dev', '!autodocs'] }

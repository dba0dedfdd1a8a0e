import type { Meta, StoryObj } from '@storybook/react-vite'
import { animationNames, folderSkins, frameCount } from '../assets/quake2/sydney/tris.md2?md2-animations'
import { folderSkins as weaponSkins } from '../assets/quake2/sydney/weapon.md2?md2-animations'
import { PlayerScene, expectSkinnedPlayer, playerArgTypes, playerArgs, skinSwitchPlay } from './support/PlayerScene'

/**
 * Sydney by Brian "EvilBastard" Collins: a Quake II player model whose file names no skin, with the skins of several authors beside it.
 * The skin select lists the images beside the model; the weapon is synced to the body.
 */
const meta = {
  title: 'Quake II/Sydney',
  component: PlayerScene,
  args: playerArgs('sydney', folderSkins, weaponSkins, 'stand'),
  argTypes: playerArgTypes({ animationNames, frameCount }, folderSkins),
} satisfies Meta<typeof PlayerScene>

export default meta
type Story = StoryObj<typeof meta>

/** Every animation of the file in the select, every skin beside it in the other. */
export const Playing: Story = {
  play: async ({ canvasElement }) => expectSkinnedPlayer(canvasElement),
}

/** Test only: paused, another skin changes the picture and is skinned too. */
export const SkinSwitch: Story = {
  tags: ['!dev', '!autodocs'],
  args: { playing: false },
  play: skinSwitchPlay(folderSkins),
}

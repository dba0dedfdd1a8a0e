import type { Meta, StoryObj } from '@storybook/react-vite'
import { animationNames, folderSkins, frameCount } from '../assets/quake2/faerie/tris.md2?md2-animations'
import { folderSkins as weaponSkins } from '../assets/quake2/faerie/weapon.md2?md2-animations'
import { PlayerScene, playerStories } from './support/PlayerScene'

const stories = playerStories('faerie', { animationNames, frameCount }, folderSkins, weaponSkins, 'salute')

/**
 * The Faerie by Brian "EvilBastard" Collins: a Quake II player model whose file names no skin, with twenty skins beside it.
 * The skin select lists the images beside the model; the weapon is synced to the body.
 */
const meta = {
  title: 'Quake II/Faerie',
  component: PlayerScene,
  args: stories.args,
  argTypes: stories.argTypes,
} satisfies Meta<typeof PlayerScene>

export default meta
type Story = StoryObj<typeof meta>

/** Every animation of the file in the select, every skin beside it in the other. */
export const Playing: Story = stories.playing

/** Test only: paused, another skin changes the picture and is skinned too. */
export const SkinSwitch: Story = { ...stories.skinSwitch, tags: ['!dev', '!autodocs'] }

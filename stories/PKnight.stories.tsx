import type { Meta, StoryObj } from '@storybook/react-vite'
import { animationNames, folderSkins, frameCount } from '../assets/quake2/pknight/tris.md2?md2-animations'
import { folderSkins as weaponSkins } from '../assets/quake2/pknight/weapon.md2?md2-animations'
import { PlayerScene, playerStories } from './support/PlayerScene'

const stories = playerStories('pknight', { animationNames, frameCount }, folderSkins, weaponSkins, 'run')

/**
 * The Perpetual Knight by James Green (CTF skins by Ryan Butts): a Quake II player model with every weapon model of its folder.
 * The skin select lists the images beside the model; the weapon is synced to the body.
 */
const meta = {
  title: 'Quake II/PKnight',
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

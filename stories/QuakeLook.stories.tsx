import type { Meta, StoryObj } from '@storybook/react-vite'
import { MD2Model } from '../src/index'
import { OGRO, OGRO_SKINS, OGRO_WEAPON } from './support/assets'
import { setStoryArgs, useLiveArgs } from './support/live-args'
import { difference, findStage } from './support/pixels'
import { Overlay } from './support/Stage'

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
 * The same ogro lit by three.js (Lambert, left) and by Quake II's own model lighting (right): each
 * vertex coloured by the engine's light table for its normal and the model's yaw, times the shadelight.
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
        <MD2Model
          url={OGRO}
          skin={skin}
          animation={animation}
          playing={playing}
          rotation={rotation}
          lighting="quake2"
          shadelight={shadelight}
          minlight={minlight}
          fullbright={fullbright}
          glow={glow}
        >
          <MD2Model
            url={OGRO_WEAPON}
            sync
            lighting="quake2"
            shadelight={shadelight}
            minlight={minlight}
            fullbright={fullbright}
            glow={glow}
          />
        </MD2Model>
      </group>
      <Overlay at={{ x: 0.27, y: 0.92 }}>Lambert (three.js lights)</Overlay>
      <Overlay at={{ x: 0.73, y: 0.92 }}>lighting="quake2" (row {Math.trunc((yaw * 16) / 360) & 15} of 16)</Overlay>
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

import { Canvas, useFrame, useThree } from '@react-three/fiber'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { Suspense, useEffect, useRef } from 'react'
import { expect, waitFor } from 'storybook/test'
import { Vector3, type Group } from 'three'
import { MD2Model, useMD2, usePlayerAnimation, type PlayerAnimationController } from '../src/index'
import { PLAYER_PRIORITY, type PlayerGesture } from '../src/core/internal'
import { useKeyboard } from '../examples/arena/src/game/useKeyboard'
import { OGRO, OGRO_SKINS, OGRO_WEAPON } from './support/assets'
import { difference, findStage } from './support/pixels'
import { canvasGl, useStoryRenderer } from './support/renderers'
import { BACKGROUND } from './support/Stage'

interface PlayerControlArgs {
  /** Seconds each change of animation fades over (0: Quake II's own one-tick blend). */
  crossfade: number
  /** Skin of the ogro. */
  skin: string
  /** Show the weapon, synced to the body. */
  weapon: boolean
  /** Running speed, Quake units a second. */
  runSpeed: number
}

const KEYS = [
  ['W A S D / arrows', 'run, turn'],
  ['Space', 'jump'],
  ['C (hold)', 'crouch'],
  ['F / click', 'attack (hold F: again and again)'],
  ['H', 'pain'],
  ['K', 'die / respawn'],
  ['Q', 'weapon change'],
  ['1–5', 'flip, salute, taunt, wave, point'],
] as const

const GESTURE_KEYS: Record<string, PlayerGesture> = { '1': 'flip', '2': 'salute', '3': 'taunt', '4': 'wave', '5': 'point' }
const PRIORITY_NAMES = Object.fromEntries(Object.entries(PLAYER_PRIORITY).map(([name, value]) => [value, name]))

/** The arena example's keyboard (held keys, presses since the last read), with a click anywhere as F. */
function useKeyboardAndClick() {
  const keyboard = useKeyboard()
  const { pressed } = keyboard
  useEffect(() => {
    const click = () => pressed.current.push('f')
    window.addEventListener('pointerdown', click)
    return () => window.removeEventListener('pointerdown', click)
  }, [pressed])
  return keyboard
}

const GRAVITY = 800
const JUMP_SPEED = 270
/** Where the ogro's feet are below its origin. */
const FEET = -24
const cameraOffset = new Vector3()
const cameraTarget = new Vector3()

function Player({ crossfade, skin, weapon, runSpeed, hud }: PlayerControlArgs & { hud: React.RefObject<HTMLPreElement | null> }) {
  const model = useMD2(OGRO)
  const animation = usePlayerAnimation(model, { crossfade })
  const root = useRef<Group>(null)
  const body = useRef({ yaw: 0, height: 0, velocity: 0, dead: false })
  const { held, pressed } = useKeyboardAndClick()
  const camera = useThree((state) => state.camera)

  useFrame((_, delta) => {
    const group = root.current
    if (!group) return
    const input = animation.input
    const keys = held.current
    const state = body.current
    for (const key of pressed.current) {
      if (key === 'f') input.firing = true
      else if (key === 'h') input.hurt = true
      else if (key === 'q') input.weaponChange = true
      else if (key === 'k') state.dead = !state.dead
      else if (key === ' ' && state.height === 0 && !state.dead) state.velocity = JUMP_SPEED
      else if (GESTURE_KEYS[key]) input.gesture = GESTURE_KEYS[key]
    }
    pressed.current.length = 0
    const alive = !state.dead
    const forward = alive && (keys.has('w') || keys.has('arrowup'))
    const back = alive && (keys.has('s') || keys.has('arrowdown'))
    const turn = alive ? Number(keys.has('a') || keys.has('arrowleft')) - Number(keys.has('d') || keys.has('arrowright')) : 0
    input.crouched = alive && keys.has('c')
    // A press fires once; held, the attack plays through and again.
    input.attacking = alive && keys.has('f')
    input.dead = state.dead
    input.moving = forward || back
    state.yaw += turn * 3 * delta
    state.velocity -= GRAVITY * delta
    state.height = Math.max(0, state.height + state.velocity * delta)
    if (state.height === 0) state.velocity = 0
    input.onGround = state.height === 0
    const speed = (forward ? 1 : back ? -0.6 : 0) * runSpeed * (input.crouched ? 0.5 : 1)
    group.rotation.y = state.yaw
    group.position.x += Math.sin(state.yaw) * speed * delta
    group.position.z += Math.cos(state.yaw) * speed * delta
    group.position.y = state.height - FEET

    // Follow camera: behind and above, easing towards its place.
    cameraOffset.set(-Math.sin(state.yaw) * 110, 55, -Math.cos(state.yaw) * 110)
    cameraTarget.copy(group.position).add(cameraOffset)
    camera.position.lerp(cameraTarget, 1 - Math.exp(-4 * delta))
    camera.lookAt(group.position.x, group.position.y + 5, group.position.z)

    if (hud.current) hud.current.textContent = describe(animation)
  })

  return (
    <MD2Model ref={root} model={model} controller={animation} skin={OGRO_SKINS[skin]} castShadow>
      {weapon && <MD2Model url={OGRO_WEAPON} sync castShadow />}
    </MD2Model>
  )
}

function describe(animation: PlayerAnimationController): string {
  const { state, pose } = animation
  return (
    `frame ${state.frame} (from ${state.oldFrame})  priority ${PRIORITY_NAMES[state.priority]}` +
    `  ${animation.animation.name} ${animation.frame.toFixed(2)}` +
    (pose.fadeWeight > 0 ? `  crossfade ${(pose.fadeWeight * 100).toFixed(0)}%` : '')
  )
}

function PlayerControlDemo(args: PlayerControlArgs) {
  const hud = useRef<HTMLPreElement>(null)
  const renderer = useStoryRenderer()
  return (
    <div style={{ position: 'relative', width: '100%', height: '100vh', minHeight: 360 }}>
      <Canvas
        key={renderer}
        shadows="percentage"
        dpr={[1, 2]}
        flat
        gl={canvasGl(renderer)}
        camera={{ position: [0, 80, -110], fov: 55, near: 1, far: 4000 }}
        style={{ position: 'absolute', inset: 0 }}
      >
        <color attach="background" args={[BACKGROUND]} />
        <hemisphereLight args={['#dde7ff', '#3a2f25', 1.2]} />
        <directionalLight position={[120, 200, 80]} intensity={2} castShadow shadow-mapSize={[1024, 1024]}>
          <orthographicCamera attach="shadow-camera" args={[-400, 400, 400, -400, 1, 800]} />
        </directionalLight>
        <mesh rotation-x={-Math.PI / 2} receiveShadow>
          <planeGeometry args={[4000, 4000]} />
          <meshLambertMaterial color="#56616d" />
        </mesh>
        <gridHelper args={[4000, 100, '#6d7986', '#65707c']} position-y={0.05} />
        <Suspense fallback={null}>
          <Player {...args} hud={hud} />
        </Suspense>
      </Canvas>
      <div style={{ position: 'absolute', left: 8, top: 8, font: '12px monospace', color: '#e8eef5', pointerEvents: 'none' }}>
        {KEYS.map(([key, action]) => (
          <div key={key}>
            <b>{key}</b> {action}
          </div>
        ))}
        <pre ref={hud} data-testid="player-state" style={{ margin: '6px 0 0' }} />
      </div>
    </div>
  )
}

/**
 * An ogro you drive with the keyboard, animated by Quake II's own player rules
 * (`usePlayerAnimation`): basic < wave < jump < pain < attack < death, crouched variants, jump
 * hold and land, pain and death variants in turn, the weapon-change frames backwards. Every change
 * of animation fades over `crossfade` seconds; the weapon is a second model synced to the body.
 * Click the canvas first so it has the keyboard.
 */
const meta = {
  title: 'Animation/Player control',
  component: PlayerControlDemo,
  parameters: { layout: 'fullscreen', stage: false },
  args: { crossfade: 0.15, skin: 'igdosh', weapon: true, runSpeed: 160 },
  argTypes: {
    crossfade: { control: { type: 'range', min: 0, max: 0.5, step: 0.05 } },
    skin: { control: 'select', options: Object.keys(OGRO_SKINS) },
    runSpeed: { control: { type: 'range', min: 40, max: 400, step: 10 } },
  },
} satisfies Meta<typeof PlayerControlDemo>

export default meta
type Story = StoryObj<typeof meta>

const press = (key: string, type: 'keydown' | 'keyup') => window.dispatchEvent(new KeyboardEvent(type, { key }))

/** Drive with the keyboard. Its check: running, then an attack, are shown and drawn. */
export const KeyboardDriven: Story = {
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    const still = await stage.next()
    const state = () => canvasElement.ownerDocument.querySelector('[data-testid="player-state"]')?.textContent ?? ''
    await waitFor(() => expect(state()).toMatch(/priority basic/), { timeout: 30_000 })
    press('w', 'keydown')
    await waitFor(() => expect(state()).toMatch(/^frame (4[0-5]) .* run 4[0-5]\.\d\d/), { timeout: 30_000 })
    press('f', 'keydown')
    press('f', 'keyup')
    await waitFor(() => expect(state()).toMatch(/priority attack .*attack/), { timeout: 30_000 })
    press('w', 'keyup')
    await stage.until((picture) => difference(still, picture) > 500, 'the ogro to move on screen', 30_000)
  },
}

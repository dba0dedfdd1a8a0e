import { MD2Model, useMD2, useMD2Animation } from 'react-three-md2'

// Any callback: a sound, particles, a message to the server.
const footstep = () => void new Audio('/sounds/step.wav').play()

export function Ogro() {
  const model = useMD2('/players/ogro/tris.MD2')
  const anim = useMD2Animation(model, { animation: 'stand', crossfade: 0.2, onFrame: (frame) => frame === 44 && footstep() })
  return (
    <group onClick={() => anim.play('attack', { loop: false, crossfade: 0.1 })}>
      <MD2Model model={model} controller={anim}>
        <MD2Model url="/players/ogro/weapon.md2" sync />
      </MD2Model>
    </group>
  )
}

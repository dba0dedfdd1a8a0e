import { MD2Instance, MD2Instances } from 'react-three-md2'

export interface Ogro {
  id: number
  position: [number, number, number]
  animation: string
  /** Quad damage: a blue shell. */
  quad: boolean
}

export function ShellsAndShadows({ ogros }: { ogros: Ogro[] }) {
  return (
    <MD2Instances url="/players/ogro/tris.md2" lighting="quake2" shadow="blob" shadowFloor={-24}>
      {ogros.map((o) => (
        <MD2Instance key={o.id} position={o.position} animation={o.animation} shell={o.quad ? 'blue' : null} />
      ))}
      <MD2Instances url="/players/ogro/weapon.md2" sync />
    </MD2Instances>
  )
}

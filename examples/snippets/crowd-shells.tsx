import { MD2BlobShadow, MD2Instance, MD2Instances, MD2Quake2Lighting, MD2Shell } from 'react-three-md2'

export interface Ogro {
  id: number
  position: [number, number, number]
  animation: string
  /** Quad damage: a blue shell. */
  quad: boolean
}

export function ShellsAndShadows({ ogros }: { ogros: Ogro[] }) {
  return (
    <MD2Instances url="/players/ogro/tris.MD2">
      {/* Worn by every instance (and by the weapons that follow them). */}
      <MD2Quake2Lighting />
      <MD2BlobShadow floor={-24} />
      {ogros.map((o) => (
        <MD2Instance key={o.id} position={o.position} animation={o.animation}>
          {/* Worn by this instance alone. */}
          {o.quad && <MD2Shell color="blue" />}
        </MD2Instance>
      ))}
      <MD2Instances url="/players/ogro/weapon.md2" sync />
    </MD2Instances>
  )
}

import { MD2Instance, MD2Instances, MD2Quake2Lighting } from 'react-three-md2'

export interface Soldier {
  id: number
  position: [number, number, number]
  yaw: number
  animation: string
}

export function Army({ soldiers }: { soldiers: Soldier[] }) {
  return (
    <MD2Instances url="/players/ogro/tris.MD2" skin="igdosh.pcx" limit={500}>
      <MD2Quake2Lighting />
      {soldiers.map((s) => (
        <MD2Instance key={s.id} position={s.position} rotation={[0, s.yaw, 0]} animation={s.animation} crossfade={0.3} />
      ))}
    </MD2Instances>
  )
}

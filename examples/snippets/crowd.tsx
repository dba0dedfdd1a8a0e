import { MD2Instance, MD2Instances } from 'react-three-md2'

export interface Soldier {
  id: number
  position: [number, number, number]
  yaw: number
  animation: string
}

export function Army({ soldiers }: { soldiers: Soldier[] }) {
  return (
    <MD2Instances url="/players/ogro/tris.md2" skin="igdosh.pcx" limit={500} lighting="quake2">
      {soldiers.map((s) => (
        <MD2Instance key={s.id} position={s.position} rotation={[0, s.yaw, 0]} animation={s.animation} crossfade={0.3} />
      ))}
    </MD2Instances>
  )
}

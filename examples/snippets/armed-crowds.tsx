import { MD2Instance, MD2Instances, useMD2Tags } from 'react-three-md2'

export interface Character {
  id: number
  position: [number, number, number]
  animation: string
}

export function ArmedCrowds({ ogros, soldiers }: { ogros: Character[]; soldiers: Character[] }) {
  // The soldier's tag file, for the head placed on tag_head of every instance (Suspense, cached).
  const tags = useMD2Tags('/ufoai/soldier/body.tag')
  return (
    <>
      <MD2Instances url="/players/ogro/tris.MD2" skin="igdosh.pcx">
        {ogros.map((o) => (
          <MD2Instance key={o.id} position={o.position} animation={o.animation} />
        ))}
        <MD2Instances url="/players/ogro/weapon.md2" sync />
      </MD2Instances>
      <MD2Instances url="/ufoai/soldier/body.md2" tags={tags}>
        {soldiers.map((s) => (
          <MD2Instance key={s.id} position={s.position} animation={s.animation} />
        ))}
        <MD2Instances url="/ufoai/soldier/head01.md2" tag="tag_head" />
      </MD2Instances>
    </>
  )
}

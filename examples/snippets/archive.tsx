import { Suspense } from 'react'
import { MD2Archive, MD2Model, MD2Player } from 'react-three-md2'

export function FromThePak() {
  return (
    <Suspense fallback={null}>
      <MD2Archive url="/pak0.pak">
        <MD2Model url="models/monsters/tank/tris.md2" animation="walk" />
        <MD2Player path="players/male" skin="grunt" weapon="railgun" />
      </MD2Archive>
    </Suspense>
  )
}

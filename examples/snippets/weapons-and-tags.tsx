import { useRef } from 'react'
import { MD2Attach, MD2Model, MD2Player, useMD2AnimationTable, useMD2Tags } from 'react-three-md2'
import type { Group } from 'three'

/** A Quake II player folder: body, skin by name, weapon synced to the body. */
export function Ogro() {
  return <MD2Player path="/players/ogro/" skin="igdosh" weapon="railgun" animation="run" crossfade={0.2} />
}

/** A UFO:AI soldier, animated by the table shipped beside him (`body.anm`). */
export function Soldier() {
  // His animations: the frames say nothing ("FRAME 000"), the .anm names them (Suspense, cached).
  const animations = useMD2AnimationTable('/ufoai/soldier/body.anm')
  // The hand's placement, for a game to spawn shots from.
  const hand = useRef<Group>(null)
  // The body's tag file: where its head and hands are, frame by frame (Suspense, cached).
  const tags = useMD2Tags('/ufoai/soldier/body.tag')
  return (
    <MD2Model url="/ufoai/soldier/body.md2" tags={tags} animationTable={animations} animation="walk1">
      <MD2Attach tag="tag_head">
        <MD2Model url="/ufoai/soldier/head01.md2" />
      </MD2Attach>
      <MD2Attach tag="tag_rweapon" ref={hand}>
        <MD2Model url="/ufoai/weapons/rifle.md2" />
      </MD2Attach>
    </MD2Model>
  )
}

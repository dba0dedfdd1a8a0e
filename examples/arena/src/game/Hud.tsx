import { useEffect, useState } from 'react'
import { isDown, type World } from './world'
import './hud.css'

const KEYS = 'W A S D / arrows: run, turn · Space: jump · C: crouch · T: aim at the nearest · F / click: shoot'

interface Readout {
  kills: number
  alive: number
  footsteps: number
  shots: number
  animation: string
}

function read(world: World): Readout {
  return {
    kills: world.kills,
    alive: world.enemies.filter((enemy) => !isDown(enemy)).length,
    footsteps: world.footsteps,
    shots: world.shots,
    animation: world.player.animation,
  }
}

/** The HUD and the crosshair, as DOM over the canvas: the world is read ten times a second, not every frame. */
export function Hud({ world }: { world: World }) {
  const [readout, setReadout] = useState(() => read(world))
  useEffect(() => {
    const timer = setInterval(() => setReadout(read(world)), 100)
    return () => clearInterval(timer)
  }, [world])
  return (
    <>
      <div className="crosshair" aria-hidden="true" />
      <div className="hud" data-testid="arena-state">
        <div>
          kills <b>{readout.kills}</b> · enemies standing <b>{readout.alive}</b>
        </div>
        <div>
          footsteps <b>{readout.footsteps}</b> · shots <b>{readout.shots}</b> · animation <b>{readout.animation}</b>
        </div>
        <div className="keys">{KEYS}</div>
      </div>
    </>
  )
}

/**
 * The scenes of the browser benchmark page (bench/browser/main.tsx): N Ogros as three.js morph meshes, as
 * MD2Characters, as GPU crowds (culled, armed), and the drawing floor they are measured against.
 */
import { useFrame } from '@react-three/fiber'
import * as THREE from 'three'
import { useEffect, useMemo, type ReactNode } from 'react'
import { type AnimationClip, AnimationMixer, type BufferGeometry, Mesh, MeshLambertMaterial, type Object3D, type Texture } from 'three'
import type { MD2Tags } from '../../src/core/tags/parseMD2Tags'
import type { MD2ModelData } from '../../src/core/format/types'
import { useMD2Crowd } from '../../src/react/MD2Instances'
import { createMD2Geometry } from '../../src/three/mesh/MD2Geometry'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import type { CrowdRenderer } from '../../src/three/crowd/gpu/CrowdRenderer'
import type { CrowdComputeCull } from '../../src/three/webgpu/CrowdComputeCull'

/** Grid positions on the ground, spaced so N Ogros fill the view. */
export function grid(n: number, spacing: number): [number, number, number][] {
  const side = Math.ceil(Math.sqrt(n))
  return Array.from({ length: n }, (_, i) => {
    const x = (i % side) - (side - 1) / 2
    const z = Math.floor(i / side) - (side - 1) / 2
    return [x * spacing, 0, z * spacing]
  })
}

export function ThreeOgros({
  geometry,
  clip,
  material,
  n,
}: {
  geometry: BufferGeometry
  clip: AnimationClip
  material: MeshLambertMaterial
  n: number
}) {
  const { meshes, mixers } = useMemo(() => {
    const meshes = grid(n, 60).map((position) => {
      const mesh = new Mesh(geometry, material)
      mesh.position.set(...position)
      return mesh
    })
    const mixers = meshes.map((mesh) => {
      const mixer = new AnimationMixer(mesh)
      mixer.clipAction(clip).play()
      return mixer
    })
    return { meshes, mixers }
  }, [geometry, clip, material, n])
  useFrame((_, delta) => {
    for (let i = 0; i < mixers.length; i++) mixers[i]!.update(delta)
  })
  return (
    <>
      {meshes.map((mesh, i) => (
        <primitive key={i} object={mesh} />
      ))}
    </>
  )
}

/** What the bench uses of an MD2Character, three's or the library's. */
interface CharacterLike {
  scale: number
  root: Object3D
  onLoadComplete: () => void
  loadParts(config: object): void
  setAnimation(name: string): void
  setWeapon(index: number): void
  update(delta: number): void
}

/** Moves every character on by the frame's delta. */
function StepCharacters({ characters }: { characters: CharacterLike[] }) {
  useFrame((_, delta) => {
    for (let i = 0; i < characters.length; i++) characters[i]!.update(delta)
  })
  return null
}

/** N Ogros as N MD2Characters, each loaded by `loadParts` (as three's class does, one load per character), running, armed. */
export async function loadCharacters({ n, Class }: { n: number; Class: new () => unknown }): Promise<ReactNode> {
  const config = {
    baseUrl: '/quake2/ogro/',
    body: 'tris.MD2',
    skins: ['../png/igdosh.png'],
    weapons: [['weapon.md2', '../png/weapon.jpg']],
  }
  const characters = await Promise.all(
    grid(n, 60).map(
      (position) =>
        new Promise<CharacterLike>((resolve) => {
          const character = new Class() as CharacterLike
          character.root.position.set(...position)
          character.onLoadComplete = () => {
            // In this order: three's setWeapon before any setAnimation throws (it syncs to no clip).
            character.setAnimation('run')
            character.setWeapon(0)
            resolve(character)
          }
          character.loadParts(config)
        }),
    ),
  )
  return (
    <>
      <StepCharacters characters={characters} />
      {characters.map((character, i) => (
        <primitive key={i} object={character.root} />
      ))}
    </>
  )
}

/** N running Ogros as one GPU crowd (one draw call), its poses blended where `decode` says. */
export function GpuOgros({
  model,
  skin,
  n,
  decode,
  pose,
  castShadow = false,
}: {
  model: MD2ModelData
  skin: Texture
  n: number
  decode?: 'compute'
  pose?: 'shader' | 'cpu'
  castShadow?: boolean
}) {
  const crowd = useMD2Crowd(model, { limit: Math.max(n, 1), map: skin, decode, pose })
  crowd.castShadow = castShadow
  useEffect(() => {
    const position = new THREE.Vector3()
    grid(n, 60).forEach(([x, y, z], i) => {
      crowd.setTransform(i, { position: position.set(x, y, z) })
      crowd.play(i, 'run')
    })
  }, [crowd, n])
  return <primitive object={crowd} />
}

/**
 * N running Ogros, one in ten on the grid in view, the rest on a grid `behind` units behind the camera: culled
 * `by` the compute pass (an indirect draw of the tenth) or by the vertex stage (every instance's vertices run).
 */
export function CullOgros({
  model,
  skin,
  n,
  by,
  behind,
}: {
  model: MD2ModelData
  skin: Texture
  n: number
  by: 'compute' | 'vertex'
  behind: number
}) {
  const crowd = useMD2Crowd(model, { limit: Math.max(n, 1), map: skin })
  useEffect(() => {
    // The crowd's own pass (a private part), left off for the vertex stage's culling.
    const pass = (crowd as unknown as { renderer: CrowdRenderer }).renderer.culled as CrowdComputeCull | undefined
    if (pass) pass.off = by === 'vertex'
    const shown = grid(Math.ceil(n / 10), 60)
    const hidden = grid(n - shown.length, 60)
    const position = new THREE.Vector3()
    for (let i = 0; i < n; i++) {
      const [x, y, z] = i % 10 === 0 ? shown[i / 10]! : hidden[i - Math.ceil(i / 10)]!
      crowd.setTransform(i, { position: i % 10 === 0 ? position.set(x, y, z) : position.set(x, y, z + behind) })
      crowd.play(i, 'run')
    }
  }, [crowd, n, by, behind])
  return <primitive object={crowd} />
}

/**
 * N GPU crowd instances (Ogros running, or soldiers walking), each with a weapon drawn by a follower
 * crowd when `weapon` is given: one more draw, posed (synced) or placed (on a tag) by the body's crowd.
 */
export function ArmedCrowd({
  model,
  skin,
  n,
  animation,
  tags,
  weapon,
}: {
  model: MD2ModelData
  skin: Texture | null
  n: number
  animation: string
  tags?: MD2Tags
  weapon?: { model: MD2ModelData; skin: Texture | null; tag?: string }
}) {
  const crowd = useMD2Crowd(model, { limit: Math.max(n, 1), map: skin })
  crowd.tags = tags
  useEffect(() => {
    const position = new THREE.Vector3()
    grid(n, 60).forEach(([x, y, z], i) => {
      crowd.setTransform(i, { position: position.set(x, y, z) })
      crowd.play(i, animation)
    })
  }, [crowd, n, animation])
  return (
    <primitive object={crowd}>{weapon && <Follower leader={crowd} model={weapon.model} skin={weapon.skin} tag={weapon.tag} />}</primitive>
  )
}

function Follower({ leader, model, skin, tag }: { leader: MD2Crowd; model: MD2ModelData; skin: Texture | null; tag?: string }) {
  const crowd = useMD2Crowd(model, { limit: leader.capacity, map: skin })
  useEffect(() => {
    followCrowd(crowd, leader, tag === undefined ? {} : { tag, sync: false })
    return () => followCrowd(crowd, null)
  }, [crowd, leader, tag])
  return <primitive object={crowd} />
}

/** The drawing floor: the same triangles, one InstancedMesh of frame 0, nothing animated. */
export function FloorOgros({ model, skin, n }: { model: MD2ModelData; skin: Texture; n: number }) {
  const mesh = useMemo(() => {
    const instanced = new THREE.InstancedMesh(createMD2Geometry(model), new MeshLambertMaterial({ map: skin }), Math.max(n, 1))
    const matrix = new THREE.Matrix4()
    grid(n, 60).forEach(([x, y, z], i) => instanced.setMatrixAt(i, matrix.makeTranslation(x, y, z)))
    instanced.count = n
    return instanced
  }, [model, skin, n])
  return <primitive object={mesh} />
}

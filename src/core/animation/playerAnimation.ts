/**
 * Quake II's player animation rules (the game's `G_SetClientFrame` with the pain, death, attack,
 * gesture and weapon-change code that sets its animations), as a pure state machine over the
 * standard 198-frame player model. One `stepPlayerAnimation` is one 10 Hz server frame: it moves
 * the frame on by one, or starts the animation the input asks for when its priority allows.
 */

/** Animation priorities, lowest first: a higher one is not interrupted by a lower one. */
export const PLAYER_PRIORITY = {
  basic: 0,
  wave: 1,
  jump: 2,
  pain: 3,
  attack: 4,
  death: 5,
  /** The weapon-change frames, played backwards. */
  reverse: 6,
} as const

export type PlayerPriority = (typeof PLAYER_PRIORITY)[keyof typeof PLAYER_PRIORITY]

export type PlayerGesture = 'flip' | 'salute' | 'taunt' | 'wave' | 'point'

/** What a game knows about its player on one server frame. */
export interface PlayerInput {
  /** Moving on the ground plane (the game's `xyspeed` is not zero). */
  moving?: boolean
  crouched?: boolean
  /** Standing on something; false while in the air. Default true. */
  onGround?: boolean
  /** A shot was fired this frame (an event: a game with its own weapon timing sets it per shot). */
  firing?: boolean
  /**
   * The fire button is held (a state): a shot each time the attack animation has played through, so holding
   * it plays the attack over and over instead of restarting it every tick.
   */
  attacking?: boolean
  /** Damage was taken this frame. */
  hurt?: boolean
  /** Dead (the death animation starts once, then holds its last frame). */
  dead?: boolean
  /** A gesture asked for this frame (the `wave` command's five). */
  gesture?: PlayerGesture | null
  /** The weapon is being put away this frame (the pain frames played backwards). */
  weaponChange?: boolean
}

/** Frame numbers of the standard player model. */
const F = {
  stand01: 0,
  stand40: 39,
  run1: 40,
  run6: 45,
  attack1: 46,
  attack8: 53,
  pain101: 54,
  pain104: 57,
  pain201: 58,
  pain204: 61,
  pain301: 62,
  pain304: 65,
  jump1: 66,
  jump2: 67,
  jump3: 68,
  jump6: 71,
  flip01: 72,
  flip12: 83,
  salute01: 84,
  salute11: 94,
  taunt01: 95,
  taunt17: 111,
  wave01: 112,
  wave11: 122,
  point01: 123,
  point12: 134,
  crstnd01: 135,
  crstnd19: 153,
  crwalk1: 154,
  crwalk6: 159,
  crattak1: 160,
  crattak9: 168,
  crpain1: 169,
  crpain4: 172,
  crdeath1: 173,
  crdeath5: 177,
  death101: 178,
  death106: 183,
  death201: 184,
  death206: 189,
  death301: 190,
  death308: 197,
} as const

const GESTURES: Readonly<Record<PlayerGesture, readonly [number, number]>> = {
  flip: [F.flip01, F.flip12],
  salute: [F.salute01, F.salute11],
  taunt: [F.taunt01, F.taunt17],
  wave: [F.wave01, F.wave11],
  point: [F.point01, F.point12],
}
const PAINS = [
  [F.pain101, F.pain104],
  [F.pain201, F.pain204],
  [F.pain301, F.pain304],
] as const
const DEATHS = [
  [F.death101, F.death106],
  [F.death201, F.death206],
  [F.death301, F.death308],
] as const

export interface PlayerAnimationState {
  /** The frame shown this server frame (Quake II's `s.frame`). */
  frame: number
  /** The frame shown the server frame before (the client blends from it). */
  oldFrame: number
  /** The last frame of the animation being played (the first, when playing backwards). */
  end: number
  priority: PlayerPriority
  /** Crouched / running when the basic animation was chosen. */
  duck: boolean
  run: boolean
  /** Pain and death variants are taken in turn. */
  painTurn: number
  deathTurn: number
  /** Whether `dead` was already seen (death starts once). */
  dead: boolean
}

export function createPlayerAnimationState(): PlayerAnimationState {
  return {
    frame: F.stand01,
    oldFrame: F.stand01,
    end: F.stand40,
    priority: PLAYER_PRIORITY.basic,
    duck: false,
    run: false,
    painTurn: 0,
    deathTurn: 0,
    dead: false,
  }
}

/** Starts an animation the way the game does: on the frame before its first, so the step lands on the first. */
function startAnimation(state: PlayerAnimationState, priority: PlayerPriority, first: number, last: number): void {
  state.priority = priority
  state.frame = first - 1
  state.end = last
}

/**
 * One server frame: the events of the frame (death, pain, attack, gesture, weapon change) start
 * their animations where their priority allows, then the frame advances as `G_SetClientFrame` does.
 * Updates `state` in place.
 */
export function stepPlayerAnimation(state: PlayerAnimationState, input: PlayerInput): void {
  state.oldFrame = state.frame
  const duck = input.crouched === true
  const onGround = input.onGround !== false

  if (input.dead) {
    if (!state.dead) {
      state.dead = true
      state.deathTurn = (state.deathTurn + 1) % 3
      const [first, last] = duck ? [F.crdeath1, F.crdeath5] : DEATHS[state.deathTurn]!
      startAnimation(state, PLAYER_PRIORITY.death, first, last)
    }
  } else {
    if (state.dead) {
      // Respawned: back to the basic animations.
      state.dead = false
      state.priority = PLAYER_PRIORITY.basic
      state.end = state.frame
    }
    if (input.weaponChange) {
      // Putting a weapon away plays the pain frames backwards.
      state.priority = PLAYER_PRIORITY.reverse
      if (duck) {
        state.frame = F.crpain4 + 1
        state.end = F.crpain1
      } else {
        state.frame = F.pain304 + 1
        state.end = F.pain301
      }
    }
    // Held fire refires once the attack shown has reached its last frame, not while it plays.
    const attackPlaying = state.priority === PLAYER_PRIORITY.attack && state.frame !== state.end
    const fire = input.firing === true || (input.attacking === true && !attackPlaying)
    if (fire && state.priority !== PLAYER_PRIORITY.reverse) {
      if (duck) startAnimation(state, PLAYER_PRIORITY.attack, F.crattak1, F.crattak9)
      else startAnimation(state, PLAYER_PRIORITY.attack, F.attack1, F.attack8)
    } else if (input.hurt && state.priority < PLAYER_PRIORITY.pain) {
      if (duck) startAnimation(state, PLAYER_PRIORITY.pain, F.crpain1, F.crpain4)
      else {
        state.painTurn = (state.painTurn + 1) % 3
        const [first, last] = PAINS[state.painTurn]!
        startAnimation(state, PLAYER_PRIORITY.pain, first, last)
      }
    } else if (input.gesture && !duck && state.priority <= PLAYER_PRIORITY.wave) {
      // Gestures never play crouched, nor over anything more important than another gesture.
      const [first, last] = GESTURES[input.gesture]
      startAnimation(state, PLAYER_PRIORITY.wave, first, last)
    }
  }
  setClientFrame(state, duck, input.moving === true, onGround)
}

/** `G_SetClientFrame`: continue the animation, or pick the basic one the player's state calls for. */
function setClientFrame(state: PlayerAnimationState, duck: boolean, run: boolean, onGround: boolean): void {
  const restart =
    (duck !== state.duck && state.priority < PLAYER_PRIORITY.death) ||
    (run !== state.run && state.priority === PLAYER_PRIORITY.basic) ||
    (!onGround && state.priority <= PLAYER_PRIORITY.wave)

  if (!restart) {
    if (state.priority === PLAYER_PRIORITY.reverse) {
      if (state.frame > state.end) {
        state.frame--
        return
      }
    } else if (state.frame < state.end) {
      state.frame++
      return
    }
    if (state.priority === PLAYER_PRIORITY.death) return
    if (state.priority === PLAYER_PRIORITY.jump) {
      if (!onGround) return
      // Landing: the rest of the jump, as a gesture would play.
      state.priority = PLAYER_PRIORITY.wave
      state.frame = F.jump3
      state.end = F.jump6
      return
    }
  }

  state.priority = PLAYER_PRIORITY.basic
  state.duck = duck
  state.run = run
  if (!onGround) {
    state.priority = PLAYER_PRIORITY.jump
    if (state.frame !== F.jump2) state.frame = F.jump1
    state.end = F.jump2
  } else if (run) {
    state.frame = duck ? F.crwalk1 : F.run1
    state.end = duck ? F.crwalk6 : F.run6
  } else {
    state.frame = duck ? F.crstnd01 : F.stand01
    state.end = duck ? F.crstnd19 : F.stand40
  }
}

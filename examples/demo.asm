; The gbhost demo cartridge: a ball bouncing over a scrolling checkerboard.
; Assembled at run time by gb_core::asm (RomBuilder); `gbhost` with no ROM runs it with the
; overlay script demo_overlay.lua, so rewinding shows the scripts rewinding with the game.
;
; Controls: hold A to stop the scrolling, hold B to freeze the ball.
; The overlay reads these WRAM variables:
BALL_X equ $C000        ; screen x of the ball (0-152)
BALL_Y equ $C001        ; screen y of the ball (0-136)
DX     equ $C002        ; +1 or -1 (two's complement)
DY     equ $C003
SCROLL equ $C004        ; background scroll (SCX)
BOUNCES equ $C005       ; walls hit so far

Start:
    di
    ld sp, $DFFF
.wait_vblank:
    ldh a, [$44]
    cp 144
    jr nz, .wait_vblank
    xor a
    ldh [$40], a            ; LCD off: VRAM and OAM are free
    ld hl, $8000            ; tiles
    ld de, Tiles
    ld bc, TilesEnd - Tiles
.copy:
    ld a, [de]
    ld [hl+], a
    inc de
    dec bc
    ld a, b
    or c
    jr nz, .copy
    ld hl, $9800            ; background map: a checkerboard of tiles 1 and 2
.map:
    ld a, l
    rrca
    rrca
    rrca
    rrca
    rrca
    xor l
    and 1
    inc a
    ld [hl+], a
    ld a, h
    cp $9C
    jr nz, .map
    ld hl, $FE00            ; clear OAM
    xor a
.oam:
    ld [hl+], a
    ld a, l
    cp $A0
    ld a, 0
    jr nz, .oam
    ld a, 40
    ld [BALL_X], a
    ld a, 50
    ld [BALL_Y], a
    ld a, 1
    ld [DX], a
    ld [DY], a
    xor a
    ld [SCROLL], a
    ld [BOUNCES], a
    ld a, 3
    ld [$FE02], a           ; object 0 uses the ball tile
    ld a, $E4
    ldh [$47], a            ; BGP
    ldh [$48], a            ; OBP0
    ld a, $93               ; LCD on, tiles at $8000, objects on, background on
    ldh [$40], a
    ld a, 1
    ldh [$FF], a            ; VBlank interrupt only
    xor a
    ldh [$0F], a
    ei

Main:
    halt
    nop
    ld a, $10               ; read the buttons (A = bit 0, B = bit 1; 0 = pressed)
    ldh [$00], a
    ldh a, [$00]
    ldh a, [$00]
    ld c, a
    bit 0, c
    jr z, .no_scroll
    ld a, [SCROLL]
    inc a
    ld [SCROLL], a
    ldh [$43], a
.no_scroll:
    bit 1, c
    jr z, .draw
    ld a, [DX]              ; x += dx; bounce at 0 and 152
    ld b, a
    ld a, [BALL_X]
    add a, b
    ld [BALL_X], a
    or a
    jr z, .flip_x
    cp 152
    jr nz, .move_y
.flip_x:
    ld a, [DX]
    cpl
    inc a
    ld [DX], a
    call Bounce
.move_y:
    ld a, [DY]              ; y += dy; bounce at 0 and 136
    ld b, a
    ld a, [BALL_Y]
    add a, b
    ld [BALL_Y], a
    or a
    jr z, .flip_y
    cp 136
    jr nz, .draw
.flip_y:
    ld a, [DY]
    cpl
    inc a
    ld [DY], a
    call Bounce
.draw:
    ld a, [BALL_Y]          ; object 0: y + 16, x + 8
    add a, 16
    ld [$FE00], a
    ld a, [BALL_X]
    add a, 8
    ld [$FE01], a
    jr Main

Bounce:
    ld a, [BOUNCES]
    inc a
    ld [BOUNCES], a
    ret

Tiles:
    ds 16, 0                                    ; 0: blank
    db $FF,$00,$FF,$00,$FF,$00,$FF,$00          ; 1: shade 1
    db $FF,$00,$FF,$00,$FF,$00,$FF,$00
    db $00,$00,$00,$00,$00,$00,$00,$00          ; 2: shade 0 with a dot
    db $00,$00,$18,$00,$18,$00,$00,$00
    db $3C,$3C,$7E,$42,$FF,$81,$FF,$81          ; 3: the ball
    db $FF,$81,$FF,$81,$7E,$42,$3C,$3C
TilesEnd:

    org $40                 ; VBlank: wakes the main loop from halt
    reti

; The gbhost link-cable demo: two Game Boys, each moving its own square with the d-pad and
; showing the other's (hollow) as the cable carries it. Assembled at run time by gb_core::asm
; (RomBuilder): `gbhost headless --link-demo` and the tests run two copies on a cable.
;
; Both sides start waiting on the external clock (SC = $80), the background white. START
; makes a side the leader (its background grey): once a frame it clocks three bytes, a $FF
; marker, its X and its Y, and takes the other side's X and Y in the same transfers. The
; waiting side answers from its serial interrupt: after the marker it has its X ready, after
; the X its Y, after the Y a $FF.
;
; WRAM, for scripts and tests:
MY_X      equ $C000     ; this side's square (OAM coordinates: x 8-160, y 16-152)
MY_Y      equ $C001
OTHER_X   equ $C002     ; the other side's, as last received
OTHER_Y   equ $C003
ROLE      equ $C004     ; 0 waiting, 1 leading
IDX       equ $C005     ; the waiting side: the next byte it expects (0 X, 1 Y, 2 marker)
VBL       equ $C006     ; set by the VBlank interrupt
EXCHANGES equ $C007     ; positions received (wraps at 256)

Start:
    di
    ld sp, $DFFF
.wait_vblank:
    ldh a, [$44]
    cp 144
    jr nz, .wait_vblank
    xor a
    ldh [$40], a            ; LCD off: VRAM and OAM are free
    ld hl, $8000
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
    ld hl, $9800            ; the background: tile 0 everywhere
    ld bc, $0400
.map:
    xor a
    ld [hl+], a
    dec bc
    ld a, b
    or c
    jr nz, .map
    ld hl, $FE00            ; no objects but ours
    ld b, 160
    xor a
.oam:
    ld [hl+], a
    dec b
    jr nz, .oam
    ld a, 80
    ld [MY_X], a
    ld [OTHER_X], a
    ld [MY_Y], a
    ld [OTHER_Y], a
    xor a
    ld [ROLE], a
    ld [IDX], a
    ld [VBL], a
    ld [EXCHANGES], a
    ld a, $E4
    ldh [$47], a            ; BGP
    ldh [$48], a            ; OBP0
    ld a, $93
    ldh [$40], a            ; LCD on: BG, objects, tiles at $8000, map at $9800
    ld a, $FF               ; wait for the leader: a marker out first
    ldh [$01], a
    ld a, $80
    ldh [$02], a
    xor a
    ldh [$0F], a
    ld a, $09               ; VBlank and serial
    ldh [$FF], a
    ei

Main:
    halt
    nop
    ld a, [VBL]
    and a
    jr z, Main
    xor a
    ld [VBL], a
    call Draw
    call Input
    ld a, [ROLE]
    and a
    jr z, Main
    call Lead
    jr Main

; Both squares into OAM (called in VBlank).
Draw:
    ld hl, $FE00
    ld a, [MY_Y]
    ld [hl+], a
    ld a, [MY_X]
    ld [hl+], a
    ld a, 1
    ld [hl+], a
    xor a
    ld [hl+], a
    ld a, [OTHER_Y]
    ld [hl+], a
    ld a, [OTHER_X]
    ld [hl+], a
    ld a, 2
    ld [hl+], a
    xor a
    ld [hl+], a
    ret

; The d-pad moves this side's square; START makes it the leader.
Input:
    ld a, $20
    ldh [$00], a
    ldh a, [$00]
    ldh a, [$00]
    cpl
    and $0F
    ld b, a                 ; bit 0 right, 1 left, 2 up, 3 down
    ld a, $10
    ldh [$00], a
    ldh a, [$00]
    ldh a, [$00]
    cpl
    and $0F
    ld c, a                 ; bit 3 start
    ld a, $30
    ldh [$00], a
    bit 3, c
    jr z, .move
    ld a, [ROLE]
    and a
    jr nz, .move
    ld a, 1
    ld [ROLE], a
    di
    xor a
    ldh [$02], a            ; no longer waiting
    ld a, $01
    ldh [$FF], a            ; VBlank only
    ldh a, [$0F]
    and $F7
    ldh [$0F], a
    ei
    ld a, $E5
    ldh [$47], a            ; the leader's background: grey
.move:
    ld a, [MY_X]
    bit 0, b
    jr z, .left
    cp 160
    jr nc, .left
    inc a
.left:
    bit 1, b
    jr z, .x_done
    cp 9
    jr c, .x_done
    dec a
.x_done:
    ld [MY_X], a
    ld a, [MY_Y]
    bit 3, b
    jr z, .up
    cp 152
    jr nc, .up
    inc a
.up:
    bit 2, b
    jr z, .y_done
    cp 17
    jr c, .y_done
    dec a
.y_done:
    ld [MY_Y], a
    ret

; The leader's exchange: the marker, then X and Y each way.
Lead:
    ld a, $FF
    call Send
    ld a, [MY_X]
    call Send
    ld [OTHER_X], a
    ld a, [MY_Y]
    call Send
    ld [OTHER_Y], a
    ld a, [EXCHANGES]
    inc a
    ld [EXCHANGES], a
    ret

; Clock out A on the internal clock, after a pause for the other side to get ready; the
; byte received in A.
Send:
    ldh [$01], a
    ld b, 40
.pause:
    dec b
    jr nz, .pause
    ld a, $81
    ldh [$02], a
.busy:
    ldh a, [$02]
    bit 7, a
    jr nz, .busy
    ldh a, [$01]
    ret

; The waiting side: a byte came in; keep it and ready the answer to the next.
SerialIrq:
    push af
    push hl
    ldh a, [$01]
    cp $FF
    jr nz, .data
    xor a
    ld [IDX], a
    ld a, [MY_X]
    jr .arm
.data:
    ld h, a
    ld a, [IDX]
    and a
    jr nz, .second
    ld a, h
    ld [OTHER_X], a
    ld a, 1
    ld [IDX], a
    ld a, [MY_Y]
    jr .arm
.second:
    ld a, h
    ld [OTHER_Y], a
    ld a, [EXCHANGES]
    inc a
    ld [EXCHANGES], a
    ld a, 2
    ld [IDX], a
    ld a, $FF
.arm:
    ldh [$01], a
    ld a, $80
    ldh [$02], a
    pop hl
    pop af
    reti

Tiles:
    ds 16, 0                                    ; 0: blank
    ds 16, $FF                                  ; 1: this side's square, filled
    db $FF,$FF,$81,$81,$81,$81,$81,$81          ; 2: the other side's, hollow
    db $81,$81,$81,$81,$81,$81,$FF,$FF
TilesEnd:

    org $40                 ; VBlank: wakes the main loop from halt
    push af
    ld a, 1
    ld [VBL], a
    pop af
    reti

    org $58                 ; serial
    jp SerialIrq

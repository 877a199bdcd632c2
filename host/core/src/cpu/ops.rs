//! The CPU's opcode groups, one method each with the opcode as a constant (`OP`), so the
//! operand its bits name (register, pair, condition, bit) is known when the method is compiled
//! into its `match` arm: [`super::Cpu::execute`]'s and the CB table's `dispatch!` call them.
//! The timing of each is gb-ctr's (one `bus` call per M-cycle).

use super::{Bus, C, Cpu};

impl Cpu {
    /// `LD r,r'` (0x40-0x7F but 0x76): `(HL)` costs a read or a write cycle.
    #[inline(always)]
    pub(super) fn op_ld<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.r8(bus, OP);
        self.set_r8(bus, OP >> 3, v);
    }

    /// `ADD`/`ADC`/`SUB`/`SBC`/`AND`/`XOR`/`OR`/`CP` A with a register or `(HL)` (0x80-0xBF).
    #[inline(always)]
    pub(super) fn op_alu<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.r8(bus, OP);
        self.alu(OP >> 3, v);
    }

    /// The same with an immediate byte (0xC6, 0xCE, … 0xFE).
    #[inline(always)]
    pub(super) fn op_alu_n<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.imm8(bus);
        self.alu(OP >> 3, v);
    }

    /// `LD rr,nn` (0x01, 0x11, 0x21, 0x31).
    #[inline(always)]
    pub(super) fn op_ld16<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.imm16(bus);
        self.set_rp(OP >> 4, v);
    }

    /// `INC rr` (0x03, 0x13, 0x23, 0x33): the IDU's cycle puts the old value on the bus.
    #[inline(always)]
    pub(super) fn op_inc16<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.rp(OP >> 4);
        self.set_rp(OP >> 4, v.wrapping_add(1));
        bus.idle_idu(v);
    }

    /// `DEC rr` (0x0B, 0x1B, 0x2B, 0x3B).
    #[inline(always)]
    pub(super) fn op_dec16<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.rp(OP >> 4);
        self.set_rp(OP >> 4, v.wrapping_sub(1));
        bus.idle_idu(v);
    }

    /// `ADD HL,rr` (0x09, 0x19, 0x29, 0x39): H from bit 11, C from bit 15, Z kept.
    #[inline(always)]
    pub(super) fn op_add_hl<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let hl = self.hl();
        let v = self.rp(OP >> 4);
        let r = u32::from(hl) + u32::from(v);
        let mut f = self.regs.f & super::Z;
        if (hl & 0x0FFF) + (v & 0x0FFF) > 0x0FFF {
            f |= super::H;
        }
        if r > 0xFFFF {
            f |= C;
        }
        self.regs.f = f;
        self.set_hl(r as u16);
        bus.idle();
    }

    /// `INC r` (0x04, 0x0C, … 0x3C).
    #[inline(always)]
    pub(super) fn op_inc8<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.r8(bus, OP >> 3);
        let r = self.inc8(v);
        self.set_r8(bus, OP >> 3, r);
    }

    /// `DEC r` (0x05, 0x0D, … 0x3D).
    #[inline(always)]
    pub(super) fn op_dec8<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.r8(bus, OP >> 3);
        let r = self.dec8(v);
        self.set_r8(bus, OP >> 3, r);
    }

    /// `LD r,n` (0x06, 0x0E, … 0x3E).
    #[inline(always)]
    pub(super) fn op_ld_n<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.imm8(bus);
        self.set_r8(bus, OP >> 3, v);
    }

    /// `RLCA`, `RRCA`, `RLA`, `RRA` (0x07, 0x0F, 0x17, 0x1F): Z always cleared.
    #[inline(always)]
    pub(super) fn op_rot_a<B: Bus, const OP: u8>(&mut self, _bus: &mut B) {
        let r = self.rot(OP >> 3, self.regs.a);
        self.regs.a = r;
        self.regs.f &= C;
    }

    /// `JR cc,e` (0x20, 0x28, 0x30, 0x38): one more cycle when taken.
    #[inline(always)]
    pub(super) fn op_jr_cc<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let e = self.imm8(bus) as i8;
        if self.condition(OP >> 3) {
            self.regs.pc = self.regs.pc.wrapping_add(e as u16);
            bus.idle();
        }
    }

    /// `RET cc` (0xC0, 0xC8, 0xD0, 0xD8): a cycle to test the condition, two more when taken.
    #[inline(always)]
    pub(super) fn op_ret_cc<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        bus.idle();
        if self.condition(OP >> 3) {
            self.regs.pc = self.pop(bus);
            bus.idle();
        }
    }

    /// `POP BC`, `POP DE`, `POP HL` (0xC1, 0xD1, 0xE1).
    #[inline(always)]
    pub(super) fn op_pop<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.pop(bus);
        self.set_rp((OP >> 4) & 3, v);
    }

    /// `PUSH BC`, `PUSH DE`, `PUSH HL` (0xC5, 0xD5, 0xE5): SP's decrement takes a cycle first.
    #[inline(always)]
    pub(super) fn op_push<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        bus.idle_idu(self.regs.sp);
        let v = self.rp((OP >> 4) & 3);
        self.push(bus, v);
    }

    /// `JP cc,nn` (0xC2, 0xCA, 0xD2, 0xDA).
    #[inline(always)]
    pub(super) fn op_jp_cc<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let addr = self.imm16(bus);
        if self.condition(OP >> 3) {
            self.regs.pc = addr;
            bus.idle();
        }
    }

    /// `CALL cc,nn` (0xC4, 0xCC, 0xD4, 0xDC).
    #[inline(always)]
    pub(super) fn op_call_cc<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let addr = self.imm16(bus);
        if self.condition(OP >> 3) {
            bus.idle_idu(self.regs.sp);
            self.push(bus, self.regs.pc);
            self.regs.pc = addr;
        }
    }

    /// `RST n` (0xC7, 0xCF, … 0xFF).
    #[inline(always)]
    pub(super) fn op_rst<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        bus.idle_idu(self.regs.sp);
        self.push(bus, self.regs.pc);
        self.regs.pc = u16::from(OP & 0x38);
    }

    /// The CB table's rotates and shifts (0x00-0x3F): `RLC`, `RRC`, `RL`, `RR`, `SLA`, `SRA`,
    /// `SWAP`, `SRL` on a register or `(HL)`.
    #[inline(always)]
    pub(super) fn cb_rot<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.r8(bus, OP);
        let r = self.rot((OP >> 3) & 7, v);
        self.set_r8(bus, OP, r);
    }

    /// `BIT b,r` (0x40-0x7F): Z from the bit, H set, C kept; `(HL)` only read.
    #[inline(always)]
    pub(super) fn cb_bit<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.r8(bus, OP);
        let mut f = (self.regs.f & C) | super::H;
        if v & (1 << ((OP >> 3) & 7)) == 0 {
            f |= super::Z;
        }
        self.regs.f = f;
    }

    /// `RES b,r` (0x80-0xBF).
    #[inline(always)]
    pub(super) fn cb_res<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.r8(bus, OP);
        self.set_r8(bus, OP, v & !(1 << ((OP >> 3) & 7)));
    }

    /// `SET b,r` (0xC0-0xFF).
    #[inline(always)]
    pub(super) fn cb_set<B: Bus, const OP: u8>(&mut self, bus: &mut B) {
        let v = self.r8(bus, OP);
        self.set_r8(bus, OP, v | (1 << ((OP >> 3) & 7)));
    }

    /// The CB-prefixed opcode that follows the prefix: 256 arms, one jump.
    pub(super) fn execute_cb<B: Bus>(&mut self, bus: &mut B) {
        let op = self.imm8(bus);
        dispatch!(
            self,
            bus,
            op,
            cb_rot [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F]
            cb_bit [0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E, 0x4F, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x7B, 0x7C, 0x7D, 0x7E, 0x7F]
            cb_res [0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0xAF, 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF]
            cb_set [0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xEB, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF]
            {}
        );
    }
}

//! Attack sets of every piece, and the geometry tables (rays, lines, squares between).
//!
//! Every table is computed at compile time: leaper attacks, "fancy" magic bitboards for
//! sliders, and the squares between / the line through any two squares.
//!
//! ```
//! use chess960_core::{attacks, Bitboard, Square};
//!
//! let e4: Square = "e4".parse().unwrap();
//! assert_eq!(attacks::knight_attacks(e4).count(), 8);
//! assert_eq!(attacks::rook_attacks(Square::A1, Bitboard::EMPTY).count(), 14);
//! ```

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Role, Square};

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static WHITE_PAWN: [u64; 64] = leaper_table(&[(-1, 1), (1, 1)]);
static BLACK_PAWN: [u64; 64] = leaper_table(&[(-1, -1), (1, -1)]);

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks of a slider on an otherwise `occupied` board, by walking rays (table building).
const fn slide(sq: usize, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// Relevant occupancy mask: the rays without their last square.
const fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Magic entries and the shared attack table for one slider, computed at compile time.
struct SliderTables<const N: usize> {
    magics: [Magic; 64],
    attacks: [u64; N],
}

const fn build_slider<const N: usize>(
    magics: &[u64; 64],
    dirs: &[(i32, i32); 4],
) -> SliderTables<N> {
    let mut out = SliderTables {
        magics: [Magic {
            mask: 0,
            magic: 0,
            shift: 0,
            offset: 0,
        }; 64],
        attacks: [0u64; N],
    };
    let mut offset = 0;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let entry = Magic {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset,
        };
        // Every subset of the mask (Carry-Rippler).
        let mut subset = 0u64;
        loop {
            let index = (subset.wrapping_mul(entry.magic) >> entry.shift) as usize;
            out.attacks[offset + index] = slide(sq, subset, dirs);
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        out.magics[sq] = entry;
        offset += 1 << bits;
        sq += 1;
    }
    assert!(offset == N, "slider table size");
    out
}

static ROOK: SliderTables<102_400> = build_slider(&ROOK_MAGICS, &ROOK_DIRS);
static BISHOP: SliderTables<5_248> = build_slider(&BISHOP_MAGICS, &BISHOP_DIRS);

/// `between[a][b]` and `line[a][b]` for every pair of squares, computed at compile time.
const fn build_geometry(want_line: bool) -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut k = 0;
        while k < 2 {
            let dirs = if k == 0 { &ROOK_DIRS } else { &BISHOP_DIRS };
            let rays = slide(a, 0, dirs);
            let mut b = 0;
            while b < 64 {
                if rays & (1u64 << b) != 0 {
                    table[a][b] = if want_line {
                        (slide(a, 0, dirs) & slide(b, 0, dirs)) | (1u64 << a) | (1u64 << b)
                    } else {
                        slide(a, 1u64 << b, dirs) & slide(b, 1u64 << a, dirs)
                    };
                }
                b += 1;
            }
            k += 1;
        }
        a += 1;
    }
    table
}

/// Slider attacks on an empty board, for every square (64 entries each: always in cache).
const fn build_rays(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = slide(sq, 0, dirs);
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = build_rays(&ROOK_DIRS);
static BISHOP_RAYS: [u64; 64] = build_rays(&BISHOP_DIRS);
static BETWEEN: [[u64; 64]; 64] = build_geometry(false);
static LINE: [[u64; 64]; 64] = build_geometry(true);

#[inline(always)]
fn magic_lookup<const N: usize>(t: &SliderTables<N>, sq: Square, occupied: Bitboard) -> Bitboard {
    let m = &t.magics[sq.index()];
    let index = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // The index is below 2^(64-shift) by construction, so it is inside this square's slice.
    Bitboard(t.attacks[m.offset + index])
}

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures, not pushes).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => Bitboard(WHITE_PAWN[sq.index()]),
        Color::Black => Bitboard(BLACK_PAWN[sq.index()]),
    }
}

/// Squares a rook on `sq` attacks, given the `occupied` squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK, sq, occupied)
}

/// Squares a bishop on `sq` attacks, given the `occupied` squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP, sq, occupied)
}

/// Squares a rook on `sq` would attack on an empty board (its rank and file).
///
/// A cheap filter before [`rook_attacks`]: no enemy rook or queen on these squares, no
/// lookup needed.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Squares a bishop on `sq` would attack on an empty board (its diagonals).
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// Squares a queen on `sq` attacks, given the `occupied` squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares `piece` on `sq` attacks, given the `occupied` squares.
#[inline]
pub fn attacks(sq: Square, piece: Piece, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The full line (edge to edge) through `a` and `b`, or empty if they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
}

/// Whether `a`, `b` and `c` lie on one rank, file or diagonal.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::from_ascii(name.as_bytes()).unwrap()
    }

    #[test]
    fn magic_lookups_match_ray_walking_for_random_occupancies() {
        let mut state = 0x1234_5678_9abc_def0u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let occupied = state & state.rotate_left(17);
            for s in Square::all() {
                assert_eq!(
                    rook_attacks(s, Bitboard(occupied)).0,
                    slide(s.index(), occupied, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(s, Bitboard(occupied)).0,
                    slide(s.index(), occupied, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn leaper_tables() {
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(king_attacks(sq("e4")).count(), 8);
        assert_eq!(
            pawn_attacks(Color::White, sq("e4")),
            Bitboard::from(sq("d5")) | sq("f5")
        );
        assert_eq!(
            pawn_attacks(Color::Black, sq("a5")),
            Bitboard::from(sq("b4"))
        );
    }

    #[test]
    fn geometry_tables() {
        assert_eq!(
            between(sq("a1"), sq("d4")),
            Bitboard::from(sq("b2")) | sq("c3")
        );
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("b1"), sq("d1")), Bitboard::rank(crate::Rank::First));
        assert!(aligned(sq("a1"), sq("c3"), sq("h8")));
        assert!(!aligned(sq("a1"), sq("c3"), sq("h7")));
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
    }
}

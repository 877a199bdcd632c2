#!/usr/bin/env python3
"""Compare gbhost's screenshot of frame N with mGBA's frames N-R..N+R (raw RGB from mgba_frames).

Usage: compare.py GBHOST.png MGBA_DIR MODEL N R OUTDIR NAME
Both pictures are reduced to what the Game Boy chose, not how each emulator colours it:
  DMG: each pixel's shade 0-3, by luminance against the midpoints of 255/170/85/0 (gbhost's
       reference palette is #FFFFFF/#AAAAAA/#555555/#000000; mGBA's default DMG palette is a
       grey ramp too, checked by the colours listed in --verbose runs).
  CGB: each channel's 5-bit value (8-bit >> 3), which undoes both widenings ((c<<3)|(c>>2) or c<<3).
A game matches if one of mGBA's frames is identical under that reduction; the offset printed is
mGBA's frame number minus gbhost's. Otherwise the frame with the fewest differing pixels is shown.
Writes OUTDIR/NAME-gbhost.png (a copy), NAME-mgba.png (mGBA's best frame), NAME-diff.png (gbhost's
picture faded, differing pixels red) and prints one tab-separated line:
  NAME MODEL matched|differs offset=D|pixels=P GBHOST.png MGBA.png DIFF.png
"""
import os
import shutil
import struct
import sys
import zlib

W, H = 160, 144


def read_png(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path
    pos, idat, plte = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'PLTE':
            plte = [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
    assert interlace == 0, 'interlaced PNG'
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    bpp_bits = channels * depth
    stride = (w * bpp_bits + 7) // 8
    bpp = max(1, bpp_bits // 8)
    raw = zlib.decompress(idat)
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    out = bytearray()
    for line in rows:
        if depth == 8:
            for x in range(w):
                px = line[x * channels:(x + 1) * channels]
                if ctype == 2 or ctype == 6:
                    out += px[:3]
                elif ctype == 0 or ctype == 4:
                    out += bytes([px[0]] * 3)
                else:
                    out += bytes(plte[px[0]])
        else:
            assert ctype in (0, 3), 'unsupported PNG'
            for x in range(w):
                bit = x * depth
                v = (line[bit // 8] >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
                out += bytes(plte[v]) if ctype == 3 else bytes([v * 255 // ((1 << depth) - 1)] * 3)
    return w, h, bytes(out)


def write_png(path, w, h, rgb):
    raw = b''.join(b'\x00' + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))

    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


def reduce(rgb, model):
    out = []
    for i in range(0, len(rgb), 3):
        r, g, b = rgb[i], rgb[i + 1], rgb[i + 2]
        if model == 'CGB':
            out.append((r >> 3, g >> 3, b >> 3))
        else:
            lum = (r + g + b) / 3
            out.append(0 if lum > 212.5 else 1 if lum > 127.5 else 2 if lum > 42.5 else 3)
    return out


def main():
    gb_png, mdir, model, n, r, outdir, name = sys.argv[1:8]
    n, r = int(n), int(r)
    w, h, gb = read_png(gb_png)
    assert (w, h) == (W, H), f'{gb_png} is {w}x{h}'
    gbr = reduce(gb, model)
    best = None
    for d in sorted(range(-r, r + 1), key=abs):
        p = os.path.join(mdir, f'mgba-{n + d}.rgb')
        if not os.path.exists(p):
            continue
        m = open(p, 'rb').read()
        mr = reduce(m, model)
        diff = sum(1 for a, b in zip(gbr, mr) if a != b)
        if best is None or diff < best[0]:
            best = (diff, d, m, mr)
        if diff == 0:
            break
    gb_out = os.path.join(outdir, f'{name}-gbhost.png')
    m_out = os.path.join(outdir, f'{name}-mgba.png')
    d_out = os.path.join(outdir, f'{name}-diff.png')
    if os.path.abspath(gb_png) != os.path.abspath(gb_out):
        shutil.copy(gb_png, gb_out)
    if best is None:
        print(f'{name}\t{model}\terror\tno-mgba-frames\t{gb_out}\t-\t-')
        return
    diff, d, m, mr = best
    write_png(m_out, W, H, m)
    dimg = bytearray()
    for i, (a, b) in enumerate(zip(gbr, mr)):
        if a != b:
            dimg += b'\xff\x00\x00'
        else:
            v = sum(gb[i * 3:i * 3 + 3]) // 3
            dimg += bytes([128 + v // 2] * 3)
    write_png(d_out, W, H, bytes(dimg))
    if '--verbose' in sys.argv:
        print('mgba colours:', sorted(set(tuple(m[i:i + 3]) for i in range(0, len(m), 3)))[:16], file=sys.stderr)
    status = f'matched\toffset={d:+d}' if diff == 0 else f'differs\tpixels={diff}@{d:+d}'
    print(f'{name}\t{model}\t{status}\t{gb_out}\t{m_out}\t{d_out}')


if __name__ == '__main__':
    main()

/* mgba_frames: run a Game Boy ROM in libmgba (Debian's libmgba-dev) with no input and write
 * frames FIRST..LAST (1-based: frame k is the picture after the k-th runFrame) as raw RGB,
 * 160x144x3 bytes each, to OUTDIR/mgba-<k>.rgb.
 *
 * Usage: mgba_frames ROM MODEL FIRST LAST OUTDIR
 *   MODEL: DMG or CGB (forced through the gb.model / sgb.model / cgb.model options, so an SGB
 *   flagged ROM runs on a plain DMG as gbhost's --model auto does, not on mGBA's SGB with its border).
 * No BIOS is loaded (mGBA then starts at 0x100 with the post-boot registers). Battery saves are
 * neither loaded nor written (no mCoreAutoloadSave).
 * Build: cc -O2 -o mgba_frames mgba_frames.c -lmgba
 */
#include <mgba/core/core.h>
#include <mgba/core/config.h>
#include <mgba/core/log.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void quiet_log(struct mLogger* logger, int category, enum mLogLevel level, const char* format, va_list args) {
	(void) logger; (void) category; (void) level; (void) format; (void) args;
}

int main(int argc, char** argv) {
	if (argc != 6) {
		fprintf(stderr, "usage: %s ROM DMG|CGB FIRST LAST OUTDIR\n", argv[0]);
		return 2;
	}
	const char* rom = argv[1];
	const char* model = argv[2];
	long first = atol(argv[3]);
	long last = atol(argv[4]);
	const char* outdir = argv[5];
	if (first < 1 || last < first) {
		fprintf(stderr, "bad frame range\n");
		return 2;
	}
	static struct mLogger logger = { .log = quiet_log };
	mLogSetDefaultLogger(&logger);

	struct mCore* core = mCoreFind(rom);
	if (!core) {
		fprintf(stderr, "mgba_frames: no core for %s\n", rom);
		return 1;
	}
	if (!core->init(core)) {
		fprintf(stderr, "mgba_frames: core init failed\n");
		return 1;
	}
	mCoreInitConfig(core, NULL);
	mCoreConfigSetValue(&core->config, "gb.model", model);
	mCoreConfigSetValue(&core->config, "sgb.model", model);
	mCoreConfigSetValue(&core->config, "cgb.model", model);
	mCoreConfigSetIntValue(&core->config, "useBios", 0);
	mCoreConfigSetIntValue(&core->config, "sgb.borders", 0);
	mCoreLoadConfig(core);

	unsigned w = 0, h = 0;
	core->desiredVideoDimensions(core, &w, &h);
	/* Room for the largest picture (SGB border) whatever the model. */
	size_t stride = 256;
	color_t* buf = calloc(stride * 256, sizeof(color_t));
	core->setVideoBuffer(core, buf, stride);
	if (!mCoreLoadFile(core, rom)) {
		fprintf(stderr, "mgba_frames: cannot load %s\n", rom);
		return 1;
	}
	core->reset(core);
	core->desiredVideoDimensions(core, &w, &h);
	if (w != 160 || h != 144) {
		fprintf(stderr, "mgba_frames: picture is %ux%u, not 160x144\n", w, h);
		return 1;
	}
	unsigned char* rgb = malloc(160 * 144 * 3);
	char path[4096];
	for (long k = 1; k <= last; ++k) {
		core->runFrame(core);
		if (k < first) {
			continue;
		}
		for (unsigned y = 0; y < 144; ++y) {
			for (unsigned x = 0; x < 160; ++x) {
				color_t c = buf[y * stride + x];
				unsigned char* p = &rgb[(y * 160 + x) * 3];
#ifdef COLOR_16_BIT
				/* BGR555 */
				unsigned r5 = c & 0x1F, g5 = (c >> 5) & 0x1F, b5 = (c >> 10) & 0x1F;
				p[0] = (r5 << 3) | (r5 >> 2);
				p[1] = (g5 << 3) | (g5 >> 2);
				p[2] = (b5 << 3) | (b5 >> 2);
#else
				/* XBGR8888: red in the low byte */
				p[0] = c & 0xFF;
				p[1] = (c >> 8) & 0xFF;
				p[2] = (c >> 16) & 0xFF;
#endif
			}
		}
		snprintf(path, sizeof(path), "%s/mgba-%ld.rgb", outdir, k);
		FILE* f = fopen(path, "wb");
		if (!f || fwrite(rgb, 1, 160 * 144 * 3, f) != 160 * 144 * 3 || fclose(f) != 0) {
			fprintf(stderr, "mgba_frames: cannot write %s\n", path);
			return 1;
		}
	}
	core->deinit(core);
	free(buf);
	free(rgb);
	return 0;
}

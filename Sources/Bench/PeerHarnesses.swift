/// The small C programs `lodestone bench --peers DIR` compiles beside the peers' sources to
/// count their cost over the inputs the bench measures Lodestone with. They are kept here, not
/// as files, so an installed binary can run the comparison without the source tree; the peers
/// themselves are compiled from DIR at run time and never linked into Lodestone.
enum PeerHarnesses {
    /// Parses sentences from a file with the peer NMEA parser: `nmea-harness FILE COUNT` parses
    /// COUNT sentences, cycling through the file's lines, and prints COUNT and how many were
    /// read, only identified and refused. Callgrind counts `harness_parse_sentence` alone.
    static let nmea = #"""
        /* Feeds the peer NMEA parser the sentences of a file, one per line, for
           callgrind to count: only harness_parse_sentence is measured, so reading the
           file and the loop around it are not. Usage: nmea-harness FILE COUNT, which
           parses COUNT sentences, cycling through the file's. */
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include "minmea.h"

        /* A full parse of one sentence: identified (checksum checked), then read into
           the record of its type; a type without a reader is only identified.
           Returns 1 when read, 0 when only identified, -1 when refused. */
        __attribute__((noinline)) int harness_parse_sentence(const char *sentence) {
            switch (minmea_sentence_id(sentence, false)) {
            case MINMEA_SENTENCE_GGA: {
                struct minmea_sentence_gga record;
                return minmea_parse_gga(&record, sentence) ? 1 : -1;
            }
            case MINMEA_SENTENCE_RMC: {
                struct minmea_sentence_rmc record;
                return minmea_parse_rmc(&record, sentence) ? 1 : -1;
            }
            case MINMEA_SENTENCE_GSA: {
                struct minmea_sentence_gsa record;
                return minmea_parse_gsa(&record, sentence) ? 1 : -1;
            }
            case MINMEA_SENTENCE_GSV: {
                struct minmea_sentence_gsv record;
                return minmea_parse_gsv(&record, sentence) ? 1 : -1;
            }
            case MINMEA_SENTENCE_VTG: {
                struct minmea_sentence_vtg record;
                return minmea_parse_vtg(&record, sentence) ? 1 : -1;
            }
            case MINMEA_SENTENCE_GLL: {
                struct minmea_sentence_gll record;
                return minmea_parse_gll(&record, sentence) ? 1 : -1;
            }
            case MINMEA_SENTENCE_ZDA: {
                struct minmea_sentence_zda record;
                return minmea_parse_zda(&record, sentence) ? 1 : -1;
            }
            case MINMEA_SENTENCE_GST: {
                struct minmea_sentence_gst record;
                return minmea_parse_gst(&record, sentence) ? 1 : -1;
            }
            case MINMEA_INVALID:
                return -1;
            default:
                return 0;
            }
        }

        int main(int argc, char **argv) {
            if (argc != 3) {
                fprintf(stderr, "usage: nmea-harness FILE COUNT\n");
                return 2;
            }
            long count = strtol(argv[2], NULL, 10);
            FILE *file = fopen(argv[1], "r");
            if (file == NULL || count < 1) {
                fprintf(stderr, "cannot read %s\n", argv[1]);
                return 2;
            }
            char **lines = NULL;
            size_t used = 0, capacity = 0;
            char *line = NULL;
            size_t size = 0;
            ssize_t length;
            while ((length = getline(&line, &size, file)) >= 0) {
                while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
                    line[--length] = '\0';
                if (length == 0)
                    continue;
                if (used == capacity) {
                    capacity = capacity ? 2 * capacity : 1024;
                    char **grown = realloc(lines, capacity * sizeof *lines);
                    if (grown == NULL)
                        return 3;
                    lines = grown;
                }
                lines[used++] = line;
                line = NULL;
                size = 0;
            }
            fclose(file);
            if (used == 0) {
                fprintf(stderr, "no sentences in %s\n", argv[1]);
                return 2;
            }
            /* Called through a pointer the compiler cannot see through, so the
               measured function is neither inlined nor specialised. */
            int (*volatile parse)(const char *) = harness_parse_sentence;
            long read = 0, identified = 0, refused = 0;
            for (long index = 0; index < count; index++) {
                int outcome = parse(lines[(size_t)index % used]);
                if (outcome > 0)
                    read++;
                else if (outcome == 0)
                    identified++;
                else
                    refused++;
            }
            printf("%ld %ld %ld %ld\n", count, read, identified, refused);
            return 0;
        }
        """#

    /// Runs the peer AHRS over readings from a file: `ahrs-harness FILE UPDATES` runs UPDATES
    /// updates at 100 Hz, cycling through the readings, and prints UPDATES and the final
    /// orientation. Callgrind counts `FusionAhrsUpdate` alone.
    static let ahrs = #"""
        /* Runs the peer AHRS over readings from a file for callgrind to count: only
           its update function is measured. Each line of the file holds one reading:
           rotation rate (degrees/s), specific force (g) and magnetic field, x y z each.
           Usage: ahrs-harness FILE UPDATES, which runs UPDATES updates, cycling through
           the readings, 100 per second. */
        #include <stdio.h>
        #include <stdlib.h>
        #include "FusionAhrs.h"

        #define MOST_READINGS 4096

        static FusionVector rates[MOST_READINGS], forces[MOST_READINGS], fields[MOST_READINGS];

        int main(int argc, char **argv) {
            if (argc != 3) {
                fprintf(stderr, "usage: ahrs-harness FILE UPDATES\n");
                return 2;
            }
            long updates = strtol(argv[2], NULL, 10);
            FILE *file = fopen(argv[1], "r");
            if (file == NULL || updates < 1) {
                fprintf(stderr, "cannot read %s\n", argv[1]);
                return 2;
            }
            long count = 0;
            while (count < MOST_READINGS) {
                float v[9];
                if (fscanf(file, "%f %f %f %f %f %f %f %f %f", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) != 9)
                    break;
                rates[count] = (FusionVector){.axis = {v[0], v[1], v[2]}};
                forces[count] = (FusionVector){.axis = {v[3], v[4], v[5]}};
                fields[count] = (FusionVector){.axis = {v[6], v[7], v[8]}};
                count++;
            }
            fclose(file);
            if (count == 0) {
                fprintf(stderr, "no readings in %s\n", argv[1]);
                return 2;
            }
            /* The library's defaults (100 Hz, its default gain, no rejection and no
               gyroscope range), with the Earth axes of the readings: north, east, down. */
            FusionAhrs ahrs;
            FusionAhrsInitialise(&ahrs);
            FusionAhrsSettings settings = fusionAhrsDefaultSettings;
            settings.convention = FusionConventionNed;
            FusionAhrsSetSettings(&ahrs, &settings);
            for (long index = 0; index < updates; index++) {
                long at = index % count;
                FusionAhrsUpdate(&ahrs, rates[at], forces[at], fields[at]);
            }
            FusionQuaternion q = FusionAhrsGetQuaternion(&ahrs);
            printf("%ld %.6f %.6f %.6f %.6f\n", updates, q.element.w, q.element.x, q.element.y, q.element.z);
            return 0;
        }
        """#
}

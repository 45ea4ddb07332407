/*
    netplay_hostile -- a peer that breaks netplay's protocol, for
    tools/netplay_check.sh: netplay must answer each of its messages with
    exit 2 and a message, never a crash or a wait without end.

        netplay_hostile --join PORT HEX...   connects to a netplay host as
                                             its player
        netplay_hostile --host HEX...        listens on a free port (printed
                                             as "netplay: listening on port
                                             N") for a spectator

    Once connected it sends each HEX (the bytes of one message, in hex)
    on channel 1, reliably and in order, then stays 5 s at most, until
    the other side is gone.
*/
#include <enet/enet.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CONNECT_PLAYER = 1, CONNECT_SPECTATOR = 2 }; /* as netplay.c's */

static ENetPacket *packet_of(const char *hex)
{
    unsigned char bytes[1024];
    size_t n = 0;
    for (; hex[0] && hex[1] && n < sizeof bytes; hex += 2) {
        char pair[3] = {hex[0], hex[1], 0};
        bytes[n++] = (unsigned char)strtoul(pair, NULL, 16);
    }
    return enet_packet_create(bytes, n, ENET_PACKET_FLAG_RELIABLE);
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "--join") && strcmp(argv[1], "--host"))) {
        fprintf(stderr, "usage: netplay_hostile --join PORT HEX... | --host HEX...\n");
        return 2;
    }
    bool join = !strcmp(argv[1], "--join");
    int first = join ? 3 : 2;
    if (join && argc < 3) return 2;
    if (enet_initialize() != 0) return 2;
    ENetAddress addr;
    enet_address_set_host(&addr, "127.0.0.1");
    addr.port = join ? (enet_uint16)strtoul(argv[2], NULL, 10) : 0;
    ENetHost *h = enet_host_create(join ? NULL : &addr, 1, 2, 0, 0);
    if (!h) return 2;
    if (join && !enet_host_connect(h, &addr, 2, CONNECT_PLAYER)) return 2;
    if (!join) printf("netplay: listening on port %u\n", (unsigned)h->address.port);
    fflush(stdout);
    ENetEvent ev;
    int sent = 0, ms = 0;
    for (; ms < 5000; ms += 10) {
        if (enet_host_service(h, &ev, 10) <= 0) continue;
        if (ev.type == ENET_EVENT_TYPE_CONNECT && !sent) {
            if (!join && ev.data != CONNECT_SPECTATOR) continue;
            for (int i = first; i < argc; i++) enet_peer_send(ev.peer, 1, packet_of(argv[i]));
            enet_host_flush(h);
            sent = 1;
        } else if (ev.type == ENET_EVENT_TYPE_RECEIVE) {
            enet_packet_destroy(ev.packet);
        } else if (ev.type == ENET_EVENT_TYPE_DISCONNECT && sent) {
            break;
        }
    }
    enet_host_destroy(h);
    enet_deinitialize();
    return sent ? 0 : 2;
}

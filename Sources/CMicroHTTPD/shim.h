#ifndef RHR_CMICROHTTPD_SHIM_H
#define RHR_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call: its options go in one MHD_OPTION_ARRAY instead. The
   listening socket comes in the array (MHD_OPTION_LISTEN_SOCKET), so the port argument is unused. */
static inline struct MHD_Daemon *rhr_mhd_start(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                                               const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

#endif

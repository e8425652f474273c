#ifndef RHR_CMICROHTTPD_SHIM_H
#define RHR_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call: its options go in one MHD_OPTION_ARRAY instead. The
   listening socket comes in the array (MHD_OPTION_LISTEN_SOCKET), so the port argument is unused. `policy` is asked
   of each connection accepted (after libmicrohttpd's own connection limit) whether it may stay. */
static inline struct MHD_Daemon *rhr_mhd_start(unsigned int flags, MHD_AcceptPolicyCallback policy, void *policy_cls,
                                               MHD_AccessHandlerCallback handler, void *handler_cls,
                                               const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, policy, policy_cls, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* MHD_get_connection_info is variadic too: the two facts rhr asks of a connection. */
static inline int rhr_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

static inline const struct sockaddr *rhr_mhd_connection_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

#endif

// Thin C shims for what Swift cannot reach directly on Linux:
// epoll and eventfd (absent from the Glibc module) and OpenSSL's function-like macros.
#ifndef CSYSTEM_H
#define CSYSTEM_H

#include <stdint.h>
#include <stddef.h>
#include <openssl/ssl.h>

// MARK: epoll / eventfd

/// epoll_create1(EPOLL_CLOEXEC).
int csys_epoll_create(void);
/// Adds `fd` edge-triggered for input, output, hang-up and error, tagged with `token`.
int csys_epoll_add(int epfd, int fd, uint64_t token);
/// Removes `fd`.
int csys_epoll_del(int epfd, int fd);
/// epoll_wait that copies each event's token and event mask into two plain arrays
/// (struct epoll_event is packed on x86_64, which Swift imports awkwardly).
int csys_epoll_wait(int epfd, uint64_t *tokens, uint32_t *masks, int max, int timeout_ms);
/// Event mask bits, as plain constants.
extern const uint32_t CSYS_EPOLLIN, CSYS_EPOLLOUT, CSYS_EPOLLERR, CSYS_EPOLLHUP, CSYS_EPOLLRDHUP;
/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC).
int csys_eventfd(void);
/// accept4(..., SOCK_CLOEXEC | SOCK_NONBLOCK) (needs _GNU_SOURCE, so it lives here).
int csys_accept(int fd, void *address, unsigned int *length);

// MARK: OpenSSL macros

long csys_SSL_CTX_set_min_tls12(SSL_CTX *ctx);
long csys_SSL_set_sni(SSL *ssl, const char *name);
/// SSL_MODE_RELEASE_BUFFERS (idle connections give their record buffers back: 1,000 TVs).
long csys_SSL_CTX_set_modes(SSL_CTX *ctx);
/// SSL_CTX_set1_groups_list: the key-exchange groups offered (1 on success).
long csys_SSL_CTX_set_groups(SSL_CTX *ctx, const char *groups);
/// Attaches a pair of memory BIOs to `ssl` (read side returns "retry" when empty) so TLS
/// becomes a transform: ciphertext in through `*rbio`, ciphertext out of `*wbio`.
int csys_ssl_attach_memory_bios(SSL *ssl, BIO **rbio, BIO **wbio);
/// Last OpenSSL error as text ("" when none); clears the queue.
void csys_ssl_error_string(char *buffer, size_t length);
/// SHA-256 of the peer certificate's DER encoding into `out` (32 bytes). Returns 1 on success.
int csys_peer_certificate_sha256(SSL *ssl, unsigned char *out);
/// The first `nid` entry (NID_commonName, NID_dnQualifier) of the peer certificate's subject as
/// UTF-8 into `out` (`length` bytes, 0-terminated). Returns its length, or -1 when the peer sent
/// no certificate, the subject has no such entry, or it does not fit.
int csys_peer_subject_entry(SSL *ssl, int nid, char *out, size_t length);
/// A fresh self-signed certificate (EC P-256, or RSA of `rsa_bits` when it is not 0; CN =
/// `common_name`, valid 10 years) as PEM strings, with `subject_alt_names` (e.g.
/// "IP:127.0.0.1,DNS:localhost", or NULL for none).
/// The caller frees both with `free`. Returns 1 on success.
int csys_self_signed_certificate(const char *common_name, const char *subject_alt_names, int rsa_bits,
                                 char **cert_pem, char **key_pem);
/// The RSA public key of the peer's certificate (`ssl`), or of a PEM certificate: modulus and
/// exponent big-endian into buffers of `*modulus_length` and `*exponent_length` bytes, which
/// are set to the lengths used. Returns 1 on success, 0 when there is no RSA key or it does
/// not fit.
int csys_peer_rsa_public_key(SSL *ssl, unsigned char *modulus, size_t *modulus_length, unsigned char *exponent,
                             size_t *exponent_length);
int csys_pem_rsa_public_key(const char *cert_pem, unsigned char *modulus, size_t *modulus_length,
                            unsigned char *exponent, size_t *exponent_length);
/// A server context asks the client for a certificate and accepts whichever it sends (or none):
/// the application pins or checks it.
void csys_SSL_CTX_request_client_certificate(SSL_CTX *ctx);
/// One server connection accepts only a client certificate whose SHA-256 is one of `count`
/// 32-byte `digests`; any other gets alert certificate_unknown (46), as from a TV that has not
/// paired that client. Returns 1 on success.
int csys_SSL_accept_only_client_certificates(SSL *ssl, const unsigned char *digests, size_t count);
/// Whether the oldest queued OpenSSL error is an alert from the peer refusing our certificate
/// (bad_certificate, unsupported, revoked, expired, certificate_unknown, unknown_ca,
/// certificate_required); the queue is left as it is.
int csys_ssl_peer_refused_certificate(void);
/// Loads a PEM certificate and key from memory into a context. Returns 1 on success.
int csys_ctx_use_pem(SSL_CTX *ctx, const char *cert_pem, const char *key_pem);

// MARK: Swift concurrency's global executor

/// Where the Swift runtime's global-executor hooks hand their jobs: one C function for jobs
/// to run now, one for jobs to run after a delay (nanoseconds from now, on CLOCK_MONOTONIC
/// reckoning; a deadline is converted to a delay here).
typedef void (*csys_job_sink)(void *job);
typedef void (*csys_delayed_job_sink)(void *job, uint64_t delay_ns);
/// Installs the runtime's `swift_task_enqueueGlobal*_hook`s so that every job Swift would
/// give its thread pool goes to the two sinks instead. Call once, before any task starts.
void csys_install_global_executor(csys_job_sink now, csys_delayed_job_sink later);
/// Names the calling thread (prctl PR_SET_NAME; at most 15 characters are kept).
void csys_name_thread(const char *name);
/// Runs a job handed to a sink, on the generic executor (as Swift's own pool runs it).
void csys_run_job(void *job);

// MARK: malloc

/// mallopt(M_ARENA_MAX, count) (glibc; M_ARENA_MAX is not in the Glibc module). 1 on success.
int csys_malloc_arena_max(int count);
/// mallopt(M_MMAP_THRESHOLD, bytes), which also stops glibc adjusting it. 1 on success.
int csys_malloc_mmap_threshold(int bytes);

#endif

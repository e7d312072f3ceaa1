#if Hummingbird  // the trait that brings in the framework (Package.swift)
public import NIOCore
public import NIOHTTPTypes
import HTTPTypes

/// Ends a connection once a response that says `Connection: close` has been written.
///
/// Hummingbird 2 keeps the connection of a request it answered without reading
/// its body, and reads the rest of that body to reach the next request. A sender
/// that trickles a byte now and then after its 413 keeps the idle timeout from
/// firing, so it holds the connection for as long as it likes: a thousand of them
/// fill a server's connection limit and every fresh request waits. Vetted's
/// refusals that leave a body unread (413, 408) say `Connection: close`; with this
/// handler in the HTTP/1 channel they end the connection instead:
///
/// ```swift
/// let app = Application(
///     router: router,
///     server: .http1(configuration: .init(additionalChannelHandlers: [VettedConnectionCloser()], idleTimeout: .seconds(15))))
/// ```
public final class VettedConnectionCloser: ChannelOutboundHandler, RemovableChannelHandler {
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    private var closeAfterEnd = false

    public init() {}

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            closeAfterEnd = head.headerFields[.connection].map { $0.lowercased().contains("close") } ?? false
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closeAfterEnd else {
                context.write(data, promise: promise)
                return
            }
            closeAfterEnd = false
            // As Hummingbird's own connection handler closes: the answer is flushed first.
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        }
    }
}

// One per channel, used on its event loop only (NIO's convention for handlers).
@available(*, unavailable)
extension VettedConnectionCloser: Sendable {}
#endif

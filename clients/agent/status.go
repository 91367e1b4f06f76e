package agent

import (
	"context"
	"fmt"
	"net"

	"github.com/massim-go/massim/protocol"
)

// maxStatusFrameLen bounds the status answer; it holds a few team names.
const maxStatusFrameLen = 1 << 20

// QueryStatus asks the server at addr for its status over a fresh
// connection (docs/protocol.md, "status-request and status-response") and closes it again. ctx bounds the whole
// exchange.
func QueryStatus(ctx context.Context, addr string) (protocol.StatusResponse, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return protocol.StatusResponse{}, fmt.Errorf("agent: query status: dial %s: %w", addr, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()

	status, err := exchangeStatus(conn)
	if err != nil {
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		}
		return protocol.StatusResponse{}, fmt.Errorf("agent: query status of %s: %w", addr, err)
	}
	return status, nil
}

func exchangeStatus(conn net.Conn) (protocol.StatusResponse, error) {
	if err := protocol.NewFrameWriter(conn).WriteMessage(protocol.StatusRequest{}); err != nil {
		return protocol.StatusResponse{}, fmt.Errorf("send status-request: %w", err)
	}
	frame, err := protocol.NewFrameReader(conn, maxStatusFrameLen).Next()
	if err != nil {
		return protocol.StatusResponse{}, fmt.Errorf("read status-response: %w", err)
	}
	msg, err := protocol.Decode(frame)
	if err != nil {
		return protocol.StatusResponse{}, fmt.Errorf("read status-response: %w", err)
	}
	status, ok := msg.(protocol.StatusResponse)
	if !ok {
		return protocol.StatusResponse{}, fmt.Errorf("expected status-response, got %s", msg.MessageType())
	}
	return status, nil
}

package protocol

// Example frames, one or more per message type (docs/protocol.md,
// "Messages"). They seed the fuzzers and drive the round-trip tests.

const scenarioExamplePercept = `{"score":40,"lastAction":"move","lastActionResult":"success","lastActionParams":["n"],
 "energy":97,"deactivated":false,"role":"worker",
 "things":[{"x":0,"y":0,"type":"entity","details":"A"},{"x":0,"y":1,"type":"block","details":"b1"},
           {"x":2,"y":-1,"type":"dispenser","details":"b0"},{"x":-3,"y":2,"type":"obstacle","details":""},
           {"x":1,"y":4,"type":"marker","details":"cp"}],
 "attached":[[0,1]],"goalZones":[[1,1],[1,2]],"roleZones":[],
 "events":[{"type":"hit","origin":[0,3],"damage":16}],
 "tasks":[{"name":"task3","deadline":188,"reward":40,
           "requirements":[{"x":0,"y":1,"type":"b1","details":""},{"x":0,"y":2,"type":"b0","details":""}]}],
 "norms":[{"name":"n1","start":30,"until":50,"level":"individual",
           "requirements":[{"type":"block","name":"any","quantity":2}],"punishment":3}],
 "violations":[]}`

var specExamples = []string{
	`{"type":"auth-request","content":{"user":"agentA1","pw":"1"}}`,
	`{"type":"auth-response","content":{"result":"ok"}}`,
	`{"type":"auth-response","content":{"result":"fail"}}`,
	`{"type":"status-request","content":{}}`,
	`{"type":"status-response","content":{"time":1663837025723,"teams":["A","B"],"teamSizes":[20,40],"currentSimulation":0}}`,
	`{"type":"sim-start","content":{"time":1663837025730,"percept":{
	  "name":"agentA1","team":"A","teamSize":20,"steps":400,
	  "roles":[{"name":"default","vision":5,"actions":["skip","move","rotate","adopt","detach","clear"],
	            "speed":[1],"clear":{"chance":0.7,"maxDistance":1}}]}}}`,
	`{"type":"request-action","content":{"id":17,"time":1663837031000,"deadline":1663837035000,"step":17,
	  "percept":{"score":0,"lastAction":"move","lastActionResult":"success","lastActionParams":["n"],
	             "energy":100,"deactivated":false,"role":"default",
	             "things":[{"x":0,"y":0,"type":"entity","details":"A"}],
	             "attached":[],"goalZones":[[1,1]],"roleZones":[],"events":[],
	             "tasks":[],"norms":[],"violations":[]}}}`,
	`{"type":"request-action","content":{"id":18,"time":1663837035000,"deadline":1663837039000,"step":18,"percept":` +
		scenarioExamplePercept + `}}`,
	`{"type":"request-action","content":{"id":19,"time":1,"deadline":2,"step":3,"percept":{"score":0,"lastAction":"survey",
	  "lastActionResult":"success","lastActionParams":["dispenser"],"energy":100,"deactivated":false,"role":"explorer",
	  "things":[],"attached":[],"goalZones":[],"roleZones":[[0,-1]],
	  "events":[{"type":"surveyed","target":"dispenser","distance":7},
	            {"type":"surveyed","target":"agent","name":"agentB3","role":"worker","energy":42}],
	  "tasks":[],"norms":[],"violations":["n1"],"absolutePosition":[12,30]}}}`,
	`{"type":"action","content":{"id":17,"type":"move","p":["n"]}}`,
	`{"type":"action","content":{"id":"17","type":"rotate","p":["cw"]}}`,
	`{"type":"action","content":{"id":3,"type":"request","p":[1,-2,1.0,1e3,true,false,null,[1, 2],{"a": "b"}]}}`,
	`{"type":"action","content":{"id":4,"type":"skip"}}`,
	`{"type":"sim-end","content":{"time":1663837425723,"score":380,"ranking":1}}`,
	`{"type":"bye","content":{}}`,
}

package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.SequencedMap;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;

/**
 * One metric as a read-only JMX MBean: its attributes, numbers and text, typed as Yammer's MBeans type them
 * ({@code long}, {@code double}, {@code java.lang.String}, {@code java.util.concurrent.TimeUnit}); nothing to set or
 * invoke.
 */
final class MetricMBean implements DynamicMBean {

    private final Metric metric;

    MetricMBean(Metric metric) {
        this.metric = metric;
    }

    private SequencedMap<String, Object> values() {
        SequencedMap<String, Object> values = new LinkedHashMap<>(metric.attributes());
        values.putAll(metric.textAttributes());
        return values;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Object value = metric.textAttributes().get(attribute);
        if (value == null) {
            value = metric.attributes().get(attribute);
        }
        if (value == null) {
            throw new AttributeNotFoundException(attribute);
        }
        return value;
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException("metrics are read-only");
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        // One reading for all: a histogram's attributes then come from one snapshot.
        SequencedMap<String, Object> values = values();
        AttributeList list = new AttributeList();
        for (String name : names) {
            if (values.containsKey(name)) {
                list.add(new Attribute(name, values.get(name)));
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("metrics have no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        MBeanAttributeInfo[] attributes = values().entrySet().stream()
                .map(e -> new MBeanAttributeInfo(e.getKey(), type(e.getValue()), e.getKey(), true, false, false))
                .toArray(MBeanAttributeInfo[]::new);
        return new MBeanInfo(metric.getClass().getName(), "A Krabka metric", attributes, null, null, null);
    }

    /** The attribute's JMX type: the primitive's name for a boxed number, as Yammer's standard MBeans have. */
    private static String type(Object value) {
        return switch (value) {
            case Long _ -> "long";
            case Double _ -> "double";
            case Enum<?> constant -> constant.getDeclaringClass().getName();
            default -> value.getClass().getName();
        };
    }
}
